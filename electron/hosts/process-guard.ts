/**
 * The last line of defence of a long-running host (`sift serve`, the Electron main process): a promise rejection
 * nobody handled, or an exception nobody caught, is logged and the process keeps serving. Node's default is to exit,
 * which would end every open window, stream and indexing run for one bug in one request.
 */

let installed = false;

/**
 * Install the guard once per process (later calls do nothing). `log` receives a one-line description and the error;
 * default `console.error`.
 */
export function installProcessGuard(log: (what: string, error: unknown) => void = console.error): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => log('[sift] unhandled promise rejection (still running):', reason));
  process.on('uncaughtException', (error, origin) => {
    log(`[sift] uncaught exception, ${origin} (still running):`, error);
  });
}
