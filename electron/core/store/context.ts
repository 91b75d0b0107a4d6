/** What every feature module of the core shares: the data folder, the app database, the event bus. */
import type Database from 'better-sqlite3';
import type { EventBus } from '../base/events';
import type { KbFiles } from './kb-files';

export interface CoreContext {
  dataDir: string;
  appDb: Database.Database;
  events: EventBus;
  kbFiles: KbFiles;
}

/** The current time as an ISO-8601 string (one place, so tests can reason about format). */
export function now(): string {
  return new Date().toISOString();
}
