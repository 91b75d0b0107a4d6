// `npm run package [-- --bundle-model DIR] [-- --dir]`: build, rebuild native modules for Electron's
// ABI, and package with electron-builder for the current OS. With --bundle-model, a local model
// folder (holding `<model id>/…`, as `npm run make-test-model` or a downloaded model writes) is
// copied into the app as resources/models, and the app uses it before downloading anything.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const bundleAt = args.indexOf('--bundle-model');
const modelDir = bundleAt >= 0 ? path.resolve(args[bundleAt + 1] ?? '') : null;
if (modelDir && !fs.existsSync(modelDir)) {
  console.error(`sift package: the model folder ${modelDir} does not exist`);
  process.exit(2);
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run('npm', ['run', 'build']);
// Rebuild better-sqlite3 & co. against Electron's headers (note: a ~/.npmrc `nodedir=` makes this
// silently build for Node instead; remove it on a packaging machine).
run('npx', ['electron-builder', 'install-app-deps']);
const builderArgs = ['electron-builder', '--config', 'electron-builder.yml', '--publish', 'never'];
if (args.includes('--dir')) builderArgs.push('--dir');
if (modelDir) builderArgs.push(`-c.extraResources.0.from=${modelDir}`, '-c.extraResources.0.to=models');
run('npx', builderArgs);
