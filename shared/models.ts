/**
 * The plain-data shapes that operations return, as zod schemas with their inferred types.
 * Names are the user's words: a KnowledgeBase holds Folders; later a Page, a Chunk, a Passage.
 */
import { z } from 'zod';

/** An ISO-8601 timestamp string such as `2026-11-29T12:00:00.000Z`. */
export const Timestamp = z.string().min(1);

/** A knowledge base: a named set of folders with its own index file. */
export const KnowledgeBase = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** How many folders the knowledge base indexes. */
  folderCount: z.number().int().nonnegative(),
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;

/** A folder on disk that belongs to one knowledge base. */
export const Folder = z.object({
  kbId: z.string(),
  /** Absolute, normalised path of the folder. */
  path: z.string(),
  /** The folder's own name (last path segment), used to prefix page paths. */
  name: z.string(),
  addedAt: Timestamp,
  /** Extra glob patterns (gitignore syntax) excluded from this folder. Default none. */
  excludeGlobs: z.array(z.string()),
});
export type Folder = z.infer<typeof Folder>;

/** Facts about the running core, for status displays and the CLI. */
export const AppInfo = z.object({
  version: z.string(),
  dataDir: z.string(),
  /** Schema version of the app database. */
  appSchemaVersion: z.number().int(),
  /** Schema version new knowledge-base files are created with. */
  kbSchemaVersion: z.number().int(),
});
export type AppInfo = z.infer<typeof AppInfo>;
