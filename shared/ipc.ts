/**
 * The two Electron IPC channel names. They appear here and nowhere else; preload and main import
 * them. Kept in a file of their own so the sandboxed preload bundle stays tiny.
 */

/** Renderer → main: `invoke(op, args)`, answered with a Result. */
export const IPC_INVOKE = 'sift:invoke';
/** Main → renderer: `(eventName, payload)` for every streamed event. */
export const IPC_EVENT = 'sift:event';
