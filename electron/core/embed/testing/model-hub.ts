/**
 * A model host that gives models: an HTTP server on 127.0.0.1 laid out like the Hugging Face hub, serving the files
 * under a folder as `/<modelId>/resolve/main/<file>` (404 for anything else) and counting requests, so a test can
 * download a generated model through transformers.js's own download code and tell whether it went to the network.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** A running hub. */
export interface ModelHub {
  /** Base address, e.g. `http://127.0.0.1:40123/`, to pass as the models' remote host. */
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Stop listening. */
  close(): Promise<void>;
}

/** Start a hub serving `filesRoot/<modelId>/<file>`; answers `Range: bytes=0-0` (how transformers.js asks a size). */
export async function startModelHub(filesRoot: string): Promise<ModelHub> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(decodeURIComponent(req.url ?? ''));
    const file = match ? path.join(filesRoot, match[1] as string, match[2] as string) : '';
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const body = fs.readFileSync(file);
    if (req.headers.range === 'bytes=0-0') {
      const headers = { 'content-range': `bytes 0-0/${body.length}`, 'content-length': '1' };
      res.writeHead(206, headers).end(body.subarray(0, 1));
      return;
    }
    res.writeHead(200, { 'content-length': String(body.length), 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
