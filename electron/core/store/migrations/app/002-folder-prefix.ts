import type { Migration } from '../../migrate';

/**
 * Each folder gets the prefix its pages are addressed under (`wiki/<prefix>/<path>`), fixed when
 * the folder is added so page paths — and the citations that point at them — stay stable when
 * folders are added or removed later. The first folder of a knowledge base has no prefix.
 */
export const m002: Migration = {
  version: 2,
  name: 'folder page prefix',
  up(db) {
    db.exec(`ALTER TABLE folders ADD COLUMN page_prefix TEXT NOT NULL DEFAULT ''`);
    // Existing knowledge bases with several folders: every folder after the first is prefixed by its name.
    const rows = db.prepare(`SELECT kb_id, path FROM folders ORDER BY kb_id, added_at, path`).all() as { kb_id: string; path: string }[];
    const seen = new Set<string>();
    const update = db.prepare(`UPDATE folders SET page_prefix = ? WHERE kb_id = ? AND path = ?`);
    for (const row of rows) {
      if (!seen.has(row.kb_id)) {
        seen.add(row.kb_id);
        continue;
      }
      update.run(row.path.split(/[\\/]/).filter(Boolean).pop() ?? 'folder', row.kb_id, row.path);
    }
  },
};
