#!/usr/bin/env node
// The `sift` command. Runs the TypeScript sources through tsx, so `npx sift` works right after
// `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/main.ts');
const code = await runCli(process.argv.slice(2));
if (code !== 0) process.exitCode = code;
