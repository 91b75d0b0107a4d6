import type { Migration } from '../../migrate';

/**
 * Each folder says whether links inside it that lead elsewhere are followed. Off for every folder,
 * including existing ones: a link out (e.g. to `/proc` or a home folder) could index far more than
 * the person chose, and following links out is now something they turn on per folder.
 */
export const m003: Migration = {
  version: 3,
  name: 'folder follow external links',
  up(db) {
    db.exec(`ALTER TABLE folders ADD COLUMN follow_external_links INTEGER NOT NULL DEFAULT 0`);
  },
};
