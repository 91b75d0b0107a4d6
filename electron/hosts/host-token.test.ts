/**
 * `sift serve` refuses a SIFT_HOST_TOKEN that could be guessed (issue #27 item 3): a one-character token used to be
 * accepted, and with it anyone on the machine could drive the host. A real `sift serve` process.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../core/ingest/testing/fixtures';
import { tempDir } from '../core/testing/temp';

async function serveWithToken(token: string) {
  return runCli(['--data-dir', tempDir(), 'serve', '--port', '0'], { env: { SIFT_HOST_TOKEN: token, SIFT_EMBEDDING: 'none' }, timeoutMs: 20_000 });
}

describe('SIFT_HOST_TOKEN', () => {
  it('is refused with a clear message when shorter than 24 characters', async () => {
    const run = await serveWithToken('x');
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull(); // it ended by itself, not by the test's kill
    expect(run.stderr).toMatch(/SIFT_HOST_TOKEN is 1 character long; it must have at least 24 so that it cannot be guessed/);
    expect(run.stdout).not.toMatch(/running at/);
  }, 30_000);

  it('is refused when it holds characters a URL would change', async () => {
    const run = await serveWithToken('a long token with spaces & more');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/SIFT_HOST_TOKEN may hold only letters, digits/);
  }, 30_000);
});
