/** The glossary as a page feature: the entries of every glossary page, written with the page (kb migration 007's tables). */
import type { PageFeature } from '../ingest/page-features';
import { isGlossaryPage, parseGlossary } from './parse';
import { writeGlossary } from './store';

/** Glossary entries of glossary pages (see parse.ts for which pages and which entries). */
export const glossaryPages: PageFeature = {
  name: 'glossary',
  format: 1,
  write(db, pageId, page) {
    if (isGlossaryPage(page.relPath, page.metadata)) writeGlossary(db, pageId, parseGlossary(page.text(), page.kind));
  },
  clear(db) {
    db.exec(`DELETE FROM glossary_entries`); // their keys go with them (ON DELETE CASCADE)
  },
};
