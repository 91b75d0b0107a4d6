/** The features every page of the core is written to, and those that take part in every search's ranking. */
import { glossaryPages } from './glossary/feature';
import type { PageFeature } from './ingest/page-features';
import type { RankingFeature } from './search/ranking-features';
import { versionPages, versionRanking } from './versions/feature';

/** Page features, in the order they are written. */
export const PAGE_FEATURES: readonly PageFeature[] = [glossaryPages, versionPages];

/** Ranking features, in the order they reorder a search's candidates. */
export const RANKING_FEATURES: readonly RankingFeature[] = [versionRanking];
