/**
 * Builds in-memory vector indexes in a worker thread (started on first use, one for the core), so
 * a search never waits for one: until it is ready, the vector stage uses sqlite-vec's KNN.
 */
import { WorkerClient, spawnWorker } from '../workers/rpc';
import type { VectorIndex } from './vector-index';
import type { IndexRequest } from './vector-index-worker';

/** The vector-index worker of one core. */
export class VectorIndexBuilder {
  private client: WorkerClient<IndexRequest, VectorIndex> | null = null;

  /** Build the index of the knowledge-base file `dbFile` in the worker. */
  build = (dbFile: string, dimension: number): Promise<VectorIndex> => {
    this.client ??= new WorkerClient(spawnWorker(() => new URL('./vector-index-worker.ts', import.meta.url), 'vector-index-worker.cjs'), 'the vector index worker');
    return this.client.call({ dbFile, dimension });
  };

  /** Stop the worker (a build in progress is abandoned). */
  async close(): Promise<void> {
    await this.client?.close();
    this.client = null;
  }
}
