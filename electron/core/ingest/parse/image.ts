/**
 * Images (PNG, JPEG, WebP, TIFF, BMP) → text by OCR: the picture is one page whose canonical text is what OCR
 * read, each line kept with its box. Without OCR (the setting is off) an image is listed as skipped, "OCR is off".
 */
import { say } from '../../../../shared/said';
import { decodeImage } from '../../ocr/image';
import { ocrInfoOf, type PageReader } from '../../ocr/reader';

/** An OCR or image error as the file's reason (ParseError `corrupt`: listed as failed); others as they are. */
export function ocrError(err: unknown): unknown {
  const name = (err as Error | null)?.name;
  return name === 'ImageDecodeError' || name === 'OcrFailed' ? new ParseError('corrupt', (err as Error).message) : err;
}
import { ParseError, type ParsedDocument } from '../types';

/**
 * Read an image with `reader`. Throws ParseError `unsupported` "OCR is off" when there is no reader, `corrupt`
 * when the bytes are not a readable image, `empty` when OCR finds no text.
 */
export async function parseImage(
  bytes: Uint8Array, ext: string, reader: PageReader | null,
): Promise<Pick<ParsedDocument, 'text' | 'pages' | 'ocr'>> {
  if (!reader) throw new ParseError('unsupported', say('file.ocrOff').text);
  let result;
  try {
    result = await reader.read(1, 1, () => decodeImage(bytes, ext));
  } catch (err) {
    throw ocrError(err);
  }
  if (result.text.trim() === '') throw new ParseError('empty', say('file.ocrNoText').text);
  return {
    text: result.text,
    pages: [{ start: 0, end: result.text.length, page: 1 }],
    ocr: ocrInfoOf(reader.modelId, [{ page: 1, offset: 0, result }]),
  };
}
