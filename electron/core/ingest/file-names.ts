/**
 * File names that are not valid UTF-8. Linux file names are bytes; a zip archive made on a Chinese Windows keeps
 * its names in GBK, and Node hands such a name over with U+FFFD in place of each bad byte — a path that then names
 * no file, so the file would vanish without a word. Such names are found from the folder's raw listing and reported,
 * with how the name reads in GBK when it does, so the person can rename the file.
 */
import fs from 'node:fs';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** How the bytes read in GBK (and its superset GB18030), or null when they do not. */
function asGbk(bytes: Buffer): string | null {
  try {
    return new TextDecoder('gb18030', { fatal: true }).decode(bytes);
  } catch {
    return null; // not GBK either, or no such decoder in this build of Node
  }
}

/**
 * The entries of the folder at `abs` whose names are not valid UTF-8: the name as Node shows it (with U+FFFD), mapped
 * to why the entry is not read. Call it only for a listing that has a U+FFFD in some name (rare), as it lists again.
 */
export async function undecodableNames(abs: string): Promise<Map<string, string>> {
  const raw = await fs.promises.readdir(abs, { encoding: 'buffer' });
  const out = new Map<string, string>();
  for (const bytes of raw) {
    try {
      UTF8.decode(bytes);
    } catch {
      const gbk = asGbk(bytes);
      const reads = gbk ? `; in GBK it reads "${gbk}"` : '';
      const reason = `the name is not valid UTF-8 (it came from another system's encoding${reads}); rename it to index it`;
      out.set(bytes.toString('utf8'), reason);
    }
  }
  return out;
}
