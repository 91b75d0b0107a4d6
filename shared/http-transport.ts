/**
 * The transport for browser mode and tests: operations as `POST /api/invoke`, events as one
 * Server-Sent-Events stream read with `fetch` (so it runs unchanged in Chromium and in Node).
 */
import type { SiftTransport } from './client';
import { fail, isErrorCode, type Result } from './errors';

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** Origin of the loopback host, e.g. `http://127.0.0.1:5123`. Default: the page's own origin. */
  baseUrl?: string;
  /** The host's per-start token, sent as `Authorization: Bearer` on every request (events too). */
  token?: string;
  /** Delay before reconnecting a dropped event stream, in ms. Default 1000 (range 100–30000). */
  reconnectMs?: number;
}

type Listener = (payload: unknown) => void;

/** Create the HTTP + SSE transport. */
export function createHttpTransport(options: HttpTransportOptions = {}): SiftTransport & { close(): void } {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const listeners = new Map<string, Set<Listener>>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let stream: AbortController | null = null;
  // Unknown until the first attempt: only a change is reported, and a first success is one.
  let connected: boolean | null = null;

  function setConnected(now: boolean): void {
    if (connected === now) return;
    connected = now;
    for (const fn of connectionListeners) fn(now);
  }

  async function invoke(op: string, args: unknown): Promise<Result<unknown>> {
    const res = await fetch(`${base}/api/invoke`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ op, args }),
      credentials: 'same-origin',
    });
    const body: unknown = await res.json().catch(() => null);
    if (isResult(body)) return body;
    return fail('internal', `the Sift host answered HTTP ${res.status} without a result`);
  }

  function dispatch(name: string, data: string): void {
    const set = listeners.get(name);
    if (!set) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const fn of set) fn(payload);
  }

  async function readStream(controller: AbortController): Promise<void> {
    const res = await fetch(`${base}/api/events`, { headers, signal: controller.signal, credentials: 'same-origin' });
    if (!res.ok || !res.body) throw new Error(`event stream refused: HTTP ${res.status}`);
    setConnected(true);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const { event, data } = parseSseBlock(block);
        if (event && data !== null) dispatch(event, data);
      }
    }
  }

  function ensureStream(): void {
    if (stream) return;
    const controller = new AbortController();
    stream = controller;
    const retry = options.reconnectMs ?? 1000;
    const loop = async (): Promise<void> => {
      while (!controller.signal.aborted) {
        try {
          await readStream(controller);
        } catch {
          // dropped or refused: wait and reconnect while someone still listens
        }
        if (!controller.signal.aborted) setConnected(false);
        if (!controller.signal.aborted) await new Promise((r) => setTimeout(r, retry));
      }
    };
    void loop();
  }

  return {
    invoke,
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      ensureStream();
      return () => {
        set.delete(listener);
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      ensureStream();
      return () => {
        connectionListeners.delete(listener);
      };
    },
    close() {
      stream?.abort();
      stream = null;
    },
  };
}

/** Parse one SSE block (`event:` and `data:` lines) into its name and data. */
export function parseSseBlock(block: string): { event: string | null; data: string | null } {
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.length ? data.join('\n') : null };
}

function isResult(body: unknown): body is Result<unknown> {
  if (typeof body !== 'object' || body === null || !('ok' in body)) return false;
  if (body.ok === true) return 'value' in body;
  if (body.ok !== false || !('error' in body)) return false;
  const error = body.error as { code?: unknown; message?: unknown } | null;
  return !!error && isErrorCode(error.code) && typeof error.message === 'string';
}
