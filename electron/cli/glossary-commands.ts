/** The CLI's glossary command: `sift glossary KB [TERM]` lists the glossary or looks a term up. */
import type { GlossaryEntry } from '../../shared/models';
import { call, printJson, type Command } from './command';
import { UsageError } from './usage';

/** What a knowledge base without a glossary is told. */
const NO_GLOSSARY = 'This knowledge base has no glossary: a page named glossary, 术语表 or 词汇表, or with front matter "sift: glossary", holds one.';

/** Entries for a terminal: the term and its aliases, where the entry is, then its definition. */
export function formatEntries(entries: GlossaryEntry[]): string {
  return entries
    .map((e) => {
      const names = e.aliases.length ? `${e.term} (${e.aliases.join(', ')})` : e.term;
      const where = `${e.passage.pagePath}  [${e.passage.start}, ${e.passage.end})`;
      return `${names} — ${where}\n    ${e.definition.replace(/\s+/g, ' ').trim()}`;
    })
    .join('\n');
}

/** Glossary commands, keyed by their words. */
export const glossaryCommands: Record<string, Command> = {
  glossary: {
    words: 1,
    async run({ sift, args, flags, io }) {
      if (args.length < 1 || args.length > 2) throw new UsageError(`expected KB [TERM], got ${args.length} argument(s). See sift --help.`);
      const [kb, term] = args as [string, string | undefined];
      if (term === undefined) {
        const entries = await call(sift, 'glossary.list', { kb });
        if (flags.json) return printJson(io, entries);
        io.out(entries.length ? formatEntries(entries) : NO_GLOSSARY);
        return 0;
      }
      const found = await call(sift, 'glossary.lookup', { kb, term });
      if (flags.json) return printJson(io, found);
      if (found.match === 'none') io.out(`No glossary entry for "${found.term}".`);
      else if (found.match === 'mentioned') io.out(`No entry for "${found.term}" itself; the glossary terms it names:\n${formatEntries(found.entries)}`);
      else io.out(formatEntries(found.entries));
      return 0;
    },
  },
};
