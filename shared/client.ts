/**
 * The one client the renderer (and tests, and any other front end) talk to. It wraps a transport —
 * Electron's `window.sift` or the HTTP/SSE transport — and validates everything that arrives.
 */
import {
  events,
  isEventName,
  isOpName,
  operations,
  type EventName,
  type EventPayload,
  type OpArgs,
  type OpName,
  type OpResult,
} from './contract';
import { SiftError, fail, type Result } from './errors';

/** What a host exposes to a client: one generic invoke and one generic subscribe. */
export interface SiftTransport {
  invoke(op: string, args: unknown): Promise<Result<unknown>>;
  /** Listen to one event; returns a function that stops listening. */
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  /**
   * Listen to the connection to the host: `false` when it is lost (the host went away), `true` when it is
   * (re)established. Events sent while it was lost are gone, so a listener reloads what it shows on `true`.
   * Optional: a transport that cannot lose its host (Electron's, in-process) never reports.
   */
  onConnection?(listener: (connected: boolean) => void): () => void;
}

/** The typed client: every operation and event of the contract, validated on arrival. */
export interface SiftClient {
  /** Run an operation; never throws, returns a Result. */
  invoke<N extends OpName>(op: N, args: OpArgs<N>): Promise<Result<OpResult<N>>>;
  /** Run an operation; throws a {@link SiftError} on failure. */
  call<N extends OpName>(op: N, args: OpArgs<N>): Promise<OpResult<N>>;
  /** Listen to one event; returns a function that stops listening. */
  subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Listen to the connection to the host (see {@link SiftTransport.onConnection}); returns a function that stops. */
  onConnection(listener: (connected: boolean) => void): () => void;
}

/** Build the typed client over a transport. */
export function createClient(transport: SiftTransport): SiftClient {
  async function invoke<N extends OpName>(op: N, args: OpArgs<N>): Promise<Result<OpResult<N>>> {
    if (!isOpName(op)) return fail('unknown_operation', `"${String(op)}" is not an operation of Sift`);
    let result: Result<unknown>;
    try {
      result = await transport.invoke(op, args);
    } catch (err) {
      return fail('internal', `could not reach Sift's core: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!result.ok) return result;
    const parsed = operations[op].result.safeParse(result.value);
    if (!parsed.success) return fail('internal', `the core sent a malformed result for ${op}`);
    return { ok: true, value: parsed.data as OpResult<N> };
  }

  return {
    invoke,
    async call(op, args) {
      const result = await invoke(op, args);
      if (!result.ok) throw new SiftError(result.error.code, result.error.message);
      return result.value;
    },
    subscribe(event, listener) {
      if (!isEventName(event)) throw new SiftError('invalid_argument', `"${String(event)}" is not an event of Sift`);
      return transport.subscribe(event, (payload) => {
        const parsed = events[event].safeParse(payload);
        if (parsed.success) listener(parsed.data as EventPayload<typeof event>);
      });
    },
    onConnection(listener) {
      return transport.onConnection?.(listener) ?? (() => undefined);
    },
  };
}
