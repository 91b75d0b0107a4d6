/**
 * A BEIR `corpus.jsonl` turned into Markdown files (`<_id>.md`, `# title` then the text), so its
 * documents go through the same scan → parse → chunk → index pipeline as a person's notes. The
 * corpus is read line by line: a large corpus never has to fit in memory as one string.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { SiftError } from '../../../shared/errors';
import { jsonLine } from './dataset';

// An id that is a safe file name on every OS: starts with a letter or digit, no separators.
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/;
// Names Windows reserves whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/** The Markdown text of one corpus document. */
export function beirMarkdown(title: string, text: string): string {
  const heading = title.replace(/\s+/g, ' ').trim();
  // Without a title, a leading newline keeps a text that starts with `---` from being read as front matter.
  return heading ? `# ${heading}\n\n${text}\n` : `\n${text}\n`;
}

/**
 * Write every document of `corpusFile` into `outDir` as Markdown. A document whose id is a safe
 * file name becomes `<_id>.md`; any other id (slashes, spaces, a name that only differs in case
 * from one already written) becomes `_<line>.md`, which no safe id can produce.
 * Returns file name → corpus id. Throws `invalid_argument` naming the line of a malformed or
 * repeated document.
 */
export async function writeBeirCorpus(corpusFile: string, outDir: string): Promise<Map<string, string>> {
  fs.mkdirSync(outDir, { recursive: true });
  const files = new Map<string, string>();
  const ids = new Set<string>();
  const lowerNames = new Set<string>();
  const input = readline.createInterface({ input: fs.createReadStream(corpusFile, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const content of input) {
    line++;
    if (content.trim() === '') continue;
    const row = jsonLine(content, corpusFile, line);
    const id = typeof row._id === 'number' ? String(row._id) : row._id;
    if (typeof id !== 'string' || id === '') throw new SiftError('invalid_argument', `${corpusFile}:${line}: the document has no "_id"`);
    if (ids.has(id)) throw new SiftError('invalid_argument', `${corpusFile}:${line}: the document id "${id}" is used twice`);
    ids.add(id);
    const title = typeof row.title === 'string' ? row.title : '';
    const text = typeof row.text === 'string' ? row.text : '';
    let name = `${id}.md`;
    if (!SAFE_ID.test(id) || RESERVED.test(id) || lowerNames.has(name.toLowerCase())) name = `_${line}.md`;
    lowerNames.add(name.toLowerCase());
    files.set(name, id);
    fs.writeFileSync(path.join(outDir, name), beirMarkdown(title, text), 'utf8');
  }
  return files;
}
