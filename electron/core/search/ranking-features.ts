/**
 * Ranking features: features above search (versions) that take part in a search's ranking without
 * search importing them. After fusion, each reorders the candidate spans of the pages found and labels
 * the passages built from them; the facade hands the list in through SearchOptions.
 */
import type Database from 'better-sqlite3';
import type { Passage } from '../../../shared/models';
import type { PageInfo } from './passages';

/** What one feature says about the pages one ranking found. */
export interface PageVerdicts {
  /** `candidates` (spans of pages, best first) in the feature's order for `query`; none is dropped. */
  order<T extends { page: PageInfo; start: number; end: number }>(candidates: T[], query: string): T[];
  /** `passage` of page `pageId` with what the feature says of that page (e.g. its version). */
  label(passage: Passage, pageId: number): Passage;
}

/** A feature's part in ranking. */
export interface RankingFeature {
  /** Its verdicts on the pages of one ranking (the fused candidates, or one referenced page). */
  forPages(db: Database.Database, pageIds: number[]): PageVerdicts;
}

/** No ranking features: fused order, no labels. */
export const NO_RANKING_FEATURES: readonly RankingFeature[] = [];
