// Worker-thread entry when Sift runs from its TypeScript sources (CLI via tsx, tests): register
// tsx in this thread, then load the implementation named in workerData. Bundled builds start
// their own compiled worker files instead (see rpc.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.siftWorkerModule);
