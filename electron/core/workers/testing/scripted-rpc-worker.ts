/**
 * A stand-in worker for rpc tests, served by the real serveRequests: `{ wait: ms }` answers after that
 * many milliseconds; closing runs an onClose that takes workerData.closeMs (default 0) or, with
 * workerData.hangOnClose, never ends.
 */
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../rpc';

const settings = (workerData ?? {}) as { closeMs?: number; hangOnClose?: boolean };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

serveRequests<{ wait: number }, { waited: number }>(
  async ({ wait }) => {
    await sleep(wait);
    return { waited: wait };
  },
  () => [],
  () => (settings.hangOnClose ? new Promise<void>(() => undefined) : sleep(settings.closeMs ?? 0)),
);
