// A stand-in embedding worker for worker-client tests: speaks the real protocol (worker-protocol.ts)
// but its behaviour is scripted, so every way a worker can fail can be produced on demand.
// workerData.start: 'ready' (default) | 'load-failed' | 'exit'. Per text: 'fail' fails the batch,
// 'crash' throws outside any handler, 'exit' ends the thread with code 7, 'slow' answers after
// 300 ms; any other text embeds as [text length, worker threadId]. A close request ends the thread
// once the batch in hand is answered, unless workerData.ignoreClose is set.
import { parentPort, threadId, workerData } from 'node:worker_threads';

const start = workerData?.start ?? 'ready';
if (start === 'exit') process.exit(3);
if (start === 'load-failed') {
  parentPort.postMessage({ type: 'load-failed', message: 'scripted load failure' });
  parentPort.close();
} else {
  let inHand = Promise.resolve();
  const answer = (request) => {
    const vectors = request.texts.map((text) => Float32Array.of(text.length, threadId));
    parentPort.postMessage({ type: 'embedded', id: request.id, vectors }, vectors.map((v) => v.buffer));
  };
  parentPort.on('message', (request) => {
    if (request.type === 'close') {
      if (!workerData?.ignoreClose) inHand.then(() => parentPort.close());
    } else if (request.texts.includes('slow')) {
      inHand = new Promise((resolve) => setTimeout(() => resolve(answer(request)), 300));
    } else if (request.texts.includes('crash')) setImmediate(() => { throw new Error('scripted crash'); });
    else if (request.texts.includes('exit')) process.exit(7);
    else if (request.texts.includes('fail')) parentPort.postMessage({ type: 'failed', id: request.id, message: 'scripted failure' });
    else answer(request);
  });
  parentPort.postMessage({ type: 'progress', status: 'loading', file: 'config.json' });
  parentPort.postMessage({ type: 'ready', dimension: 2, threadId });
}
