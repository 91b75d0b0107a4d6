import type { Migration } from '../../migrate';

/**
 * Each knowledge base says whether page digests are made for it (a model's cited summary of every page,
 * see core/digests). Off for every knowledge base, existing ones too: digests cost a model call per page.
 */
export const m004: Migration = {
  version: 4,
  name: 'knowledge base digests setting',
  up(db) {
    db.exec(`ALTER TABLE knowledge_bases ADD COLUMN digests INTEGER NOT NULL DEFAULT 0`);
  },
};
