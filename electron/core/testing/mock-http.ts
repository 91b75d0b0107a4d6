/**
 * The plumbing the model-server test doubles share (the Ollama one and the OpenAI-compatible one): reading a request
 * body, writing a streamed piece, cutting an answer on purpose, closing the server, and deterministic unit vectors.
 * It imports no test framework, so unit tests and end-to-end tests alike can use it.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';

/** The whole request body as UTF-8. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Write one piece of a streamed answer; resolves once written, or when the client has gone. */
export function write(res: http.ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    res.once('close', resolve);
    res.write(text, () => {
      res.off('close', resolve);
      resolve();
    });
  });
}

/** Cut an answer mid-stream (a connection lost), remembering that the mock did it, not the client. */
export function cut(state: { cutByMock: WeakSet<http.ServerResponse> }, res: http.ServerResponse): void {
  state.cutByMock.add(res);
  res.socket?.destroy();
}

/** Close the server, cutting the streams still open. */
export async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** A unit vector of `dimension` numbers derived from `text` (the same text, the same vector). */
export function unitVector(text: string, dimension: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimension; block++) {
    const digest = createHash('sha256').update(`${block}\u0000${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimension; i += 2) {
      values.push(digest.readUInt16BE(i) / 32767.5 - 1);
    }
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((v) => v / norm);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
