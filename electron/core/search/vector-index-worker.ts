/**
 * The vector-index worker thread: reads a knowledge base's vectors into a new in-memory index
 * (about a second at 100k chunks) off the main thread, and hands its arrays over without copying.
 */
import { openDatabase } from '../store/open';
import { serveRequests } from '../workers/rpc';
import { loadVectorIndex, type VectorIndex } from './vector-index';

/** Build the index of the knowledge-base file `dbFile`, whose vectors have `dimension` components. */
export interface IndexRequest {
  dbFile: string;
  dimension: number;
}

serveRequests<IndexRequest, VectorIndex>(
  async ({ dbFile, dimension }) => {
    const db = openDatabase(dbFile, [], `the index ${dbFile}`, { readonly: true });
    try {
      return loadVectorIndex(db, dimension);
    } finally {
      db.close();
    }
  },
  (index) => [index.ids.buffer, index.mean.buffer, index.bits.buffer, index.codes.buffer, index.scales.buffer] as ArrayBuffer[],
);
