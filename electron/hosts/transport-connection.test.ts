/**
 * The HTTP transport reports its connection to the host: lost when the event stream drops and cannot be
 * reopened, back when it is reopened. A real loopback server that goes away and comes back on its port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../shared/http-transport';

let servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => stop(s)));
  servers = [];
});

/** A server whose /api/events stream stays open (with a comment now and then). */
function listen(port = 0): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function stop(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('the HTTP transport connection state', () => {
  it('reports connected, then lost when the host goes away, then connected again when it is back', async () => {
    const first = await listen();
    const port = (first.address() as AddressInfo).port;
    const transport = createHttpTransport({ baseUrl: `http://127.0.0.1:${port}`, reconnectMs: 100 });
    const states: boolean[] = [];
    transport.onConnection!((c) => states.push(c));
    try {
      await expect.poll(() => states).toEqual([true]);
      await stop(first);
      await expect.poll(() => states).toEqual([true, false]);
      await listen(port);
      await expect.poll(() => states, { timeout: 5000 }).toEqual([true, false, true]);
    } finally {
      transport.close();
    }
  });
});
