/**
 * One Content-Security-Policy: the `<meta>` fallback in the built renderer's index.html is the
 * hosts' policy (less the directives a meta element cannot carry), and it precedes every script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from './csp';

const decode = (html: string) => html.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

describe('CSP meta fallback', () => {
  it('is the header policy without its header-only directives', () => {
    const header = CONTENT_SECURITY_POLICY.split('; ');
    expect(META_CONTENT_SECURITY_POLICY.split('; ')).toEqual(header.filter((d) => !d.startsWith('frame-ancestors')));
  });

  it('the built index.html carries it before any script', async () => {
    const outDir = tempDir();
    await build({
      configFile: path.resolve(__dirname, '../../vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/g)];
    expect(metas).toHaveLength(1);
    expect(decode(metas[0]![1]!)).toBe(META_CONTENT_SECURITY_POLICY);
    expect(metas[0]!.index).toBeLessThan(html.indexOf('<script'));
  }, 60_000);
});
