/**
 * DOCX → text through mammoth's HTML conversion and then the HTML path, so Word's heading styles
 * become headings (and section boundaries) exactly like `<h1>`–`<h6>` in a web page.
 */
import mammoth from 'mammoth';
import { ParseError, type ParsedDocument } from '../types';
import { htmlToText } from './html';
import { say } from '../../../../shared/said';

/** What a DOCX file contributes to a ParsedDocument. */
export type ParsedDocx = Pick<ParsedDocument, 'text' | 'title' | 'headings'>;

/** Images are not text; without this mammoth inlines every picture as a base64 data URI. */
const dropImages = mammoth.images.imgElement(async () => ({ src: '' }));

/**
 * Extract a Word document's text and headings. Title: the first heading. Throws ParseError
 * `corrupt` when the file is not a readable DOCX, `empty` when it has no text.
 */
export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocx> {
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: dropImages },
    );
    html = result.value;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ParseError('corrupt', say('file.docxUnreadable', { detail: message }).text);
  }
  const { text, headings } = htmlToText(html);
  if (text.trim() === '') throw new ParseError('empty', say('file.docxNoText').text);
  return { text, headings, title: headings[0]?.text ?? null };
}
