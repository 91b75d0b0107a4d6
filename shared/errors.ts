/**
 * The one error shape that crosses every process boundary, and the list of its codes.
 * A code is stable (clients branch on it); the message is for people and may change.
 */

/** Every error code Sift can return. Add new codes here and nowhere else. */
export const ERROR_CODES = [
  /** The arguments of an operation did not match its schema. */
  'invalid_argument',
  /** The named thing (knowledge base, folder, page…) does not exist. */
  'not_found',
  /** Creating the thing would duplicate one that exists. */
  'already_exists',
  /** The request conflicts with the current state (e.g. a folder nested in another). */
  'conflict',
  /** The operation name is not part of the contract. */
  'unknown_operation',
  /** A request to a host was missing its token or carried a wrong one. */
  'unauthorized',
  /** A database file was written by a newer version of Sift. */
  'database_newer',
  /** Reading or writing a file on disk failed. */
  'io_error',
  /** The operation was cancelled by the caller. */
  'cancelled',
  /** Something took longer than its time limit (a model that stalls, a slow connection). */
  'timeout',
  /** No embedding model could be loaded or downloaded. */
  'model_unavailable',
  /** The Ollama server cannot be reached. */
  'llm_unavailable',
  /** The Ollama server answered with an error. */
  'llm_error',
  /** A search stage (keyword or vector) failed; distinct from "nothing matched". */
  'search_failed',
  /** A file could not be parsed. */
  'parse_failed',
  /** This host or machine cannot do it (e.g. PDF export with no Chromium installed). */
  'unsupported',
  /** A bug or an unexpected failure; details are in the log. */
  'internal',
] as const;

/** A stable error code from {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The serialisable error value: what crosses IPC, HTTP and the CLI. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
}

/** The result of every operation: a value, or an error with a code. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** An error thrown inside Sift that carries a stable code. */
export class SiftError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'SiftError';
    this.code = code;
  }
  /** The plain-data form of this error. */
  toInfo(): ErrorInfo {
    return { code: this.code, message: this.message };
  }
}

/** Wrap a value as a successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Wrap an error code and message as a failed result. */
export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

/** True when `code` is one of {@link ERROR_CODES}. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}
