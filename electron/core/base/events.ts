/** The core's event bus: typed by the contract, with a catch-all listener for hosts. */
import type { EventName, EventPayload } from '../../../shared/contract';

type AnyListener = (event: EventName, payload: unknown) => void;

/** Publish/subscribe for the contract's events, within one core instance. */
export class EventBus {
  private readonly listeners = new Set<AnyListener>();

  /** Send an event to every listener. A throwing listener does not stop the others. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const fn of this.listeners) {
      try {
        fn(event, payload);
      } catch (err) {
        console.error(`[sift] listener for ${event} failed:`, err);
      }
    }
  }

  /** Listen to one event. Returns a function that stops listening. */
  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void {
    return this.onAny((name, payload) => {
      if (name === event) fn(payload as EventPayload<E>);
    });
  }

  /** Listen to every event (what hosts do to forward them). Returns a function that stops listening. */
  onAny(fn: AnyListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
