/**
 * Words a PDF hyphenated at the end of a line, made whole again. Justified text (TeX, Texinfo, word processors)
 * breaks words across lines ("manip-" / "ulation"), and the text layer keeps the break: neither half is the word,
 * so a search for "manipulation" or "management" missed those places (23 of them in libtasn1's manual).
 *
 * A word broken after a letter and a hyphen, with a lower-case letter starting the next line, is joined without
 * the hyphen, unless the document writes the hyphenated form elsewhere on one line and never the joined one
 * ("non-commercially" stays hyphenated when the document has it so). Other breaks are left as they are: a hyphen
 * before a capital or a digit (`ASN-` / `One`, `ISO-` / `8859`) belongs to a name.
 */

/** A break inside a word: letters, a hyphen at the end of the line, lower-case letters opening the next. */
const BROKEN = /([\p{L}]+)-\n(\p{Ll}[\p{L}]*)/gu;
/** Words as the document writes them on one line, hyphenated compounds whole. */
const WORDS = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;

/**
 * The pages' texts with their broken words joined (see the module comment); `texts[i]` null for a page that is
 * not the text layer's (OCR), left as it is. The words the document writes elsewhere come from all its pages.
 */
export function joinBrokenWords(texts: (string | null)[]): (string | null)[] {
  if (!texts.some((t) => t !== null && t.includes('-\n'))) return texts;
  const written = new Set<string>();
  for (const text of texts) {
    if (text === null) continue;
    for (const m of text.replace(BROKEN, ' ').matchAll(WORDS)) written.add(m[0].toLowerCase());
  }
  return texts.map((text) => {
    if (text === null || !text.includes('-\n')) return text;
    return text.replace(BROKEN, (_m, left: string, right: string) => {
      const hyphenated = `${left}-${right}`.toLowerCase();
      const keep = written.has(hyphenated) && !written.has(`${left}${right}`.toLowerCase());
      return keep ? `${left}-${right}` : `${left}${right}`;
    });
  });
}
