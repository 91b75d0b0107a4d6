/** The ingest worker thread: prepares files (read, parse, chunk, tokenize) off the main thread. */
import { serveRequests } from '../workers/rpc';
import { prepareFile, type FileJob, type FileOutcome } from './prepare';

serveRequests<FileJob, FileOutcome>(prepareFile);
