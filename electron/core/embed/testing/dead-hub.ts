/**
 * A model host that is there but never gives a model: an HTTP server on 127.0.0.1 that answers
 * every request with 503 and counts them, so a test can tell whether a search went to the network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running dead hub. */
export interface DeadHub {
  /** Base address, e.g. `http://127.0.0.1:40123/`, to pass as the models' remote host. */
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Stop listening. */
  close(): Promise<void>;
}

/** Start a hub on a free port of 127.0.0.1 that answers 503 to everything. */
export async function startDeadHub(): Promise<DeadHub> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
