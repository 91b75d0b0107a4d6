/**
 * Raster images for OCR: decoding files to RGBA pixels (sharp for PNG, JPEG, WebP and TIFF; @napi-rs/canvas
 * for BMP, which sharp's libvips cannot read), and the two geometric steps the models need (crop + bilinear
 * resize, half-turn rotation), written on plain typed arrays so they run the same in any thread.
 */
import { say } from '../../../shared/said';

/** Bytes that are not a readable image; the message says why (for the file's reason). */
export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

/** An image as 8-bit RGBA pixels, row after row. */
export interface RgbaImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** The largest image read, in pixels (about a 10,000 × 10,000 scan); larger is refused, not decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;

/**
 * Decode an image file to RGBA. `ext` is the lower-case extension (`bmp` goes through canvas, the rest
 * through sharp, with EXIF orientation applied so a phone photo reads upright). Throws ImageDecodeError
 * with the decoder's reason when the bytes are not a readable image.
 */
export async function decodeImage(bytes: Uint8Array, ext: string): Promise<RgbaImage> {
  try {
    if (ext === 'bmp') return await decodeWithCanvas(bytes);
    const { default: sharp } = await import('sharp');
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, pages: 1 })
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new ImageDecodeError(say('file.imageUnreadable', { detail }).text);
  }
}

async function decodeWithCanvas(bytes: Uint8Array): Promise<RgbaImage> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  if (image.width * image.height > MAX_IMAGE_PIXELS) throw new Error(`${image.width} × ${image.height} pixels is too large`);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height);
  return { data: pixels.data, width: image.width, height: image.height };
}

/** An axis-aligned rectangle in pixels: left, top, right, bottom (right and bottom exclusive). */
export type Box = [number, number, number, number];

/**
 * The part of `image` inside `box`, resized to `width` × `height` with bilinear sampling. Pixels outside
 * the image read as white (the paper), so a box that was grown past the edge adds no dark border.
 */
export function cropResize(image: RgbaImage, box: Box, width: number, height: number): RgbaImage {
  const [left, top, right, bottom] = box;
  const out = new Uint8Array(width * height * 4);
  const scaleX = (right - left) / width;
  const scaleY = (bottom - top) / height;
  const { data, width: sourceWidth, height: sourceHeight } = image;
  const stride = sourceWidth * 4;
  // each output column's source column and weight, computed once rather than once per row
  const columns = new Int32Array(width);
  const weights = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const sx = left + (x + 0.5) * scaleX - 0.5;
    columns[x] = Math.floor(sx);
    weights[x] = sx - columns[x]!;
  }
  for (let y = 0; y < height; y++) {
    const sy = top + (y + 0.5) * scaleY - 0.5;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    const rowInside = y0 >= 0 && y0 + 1 < sourceHeight;
    for (let x = 0; x < width; x++) {
      const x0 = columns[x]!;
      const fx = weights[x]!;
      const o = (y * width + x) * 4;
      const i = y0 * stride + x0 * 4;
      // the common case, read straight from the image: four opaque pixels inside it
      const direct = rowInside && x0 >= 0 && x0 + 1 < sourceWidth
        && (data[i + 3]! & data[i + 7]! & data[i + stride + 3]! & data[i + stride + 7]!) === 255;
      for (let c = 0; c < 3; c++) {
        const a = direct ? data[i + c]! : sample(image, x0, y0, c);
        const b = direct ? data[i + 4 + c]! : sample(image, x0 + 1, y0, c);
        const d = direct ? data[i + stride + c]! : sample(image, x0, y0 + 1, c);
        const e = direct ? data[i + stride + 4 + c]! : sample(image, x0 + 1, y0 + 1, c);
        out[o + c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
      }
      out[o + 3] = 255;
    }
  }
  return { data: out, width, height };
}

function sample(image: RgbaImage, x: number, y: number, channel: number): number {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return 255;
  const i = (y * image.width + x) * 4;
  const alpha = image.data[i + 3]!;
  const value = image.data[i + channel]!;
  // transparent pixels are composited over white, as a viewer shows them
  return alpha === 255 ? value : (value * alpha + 255 * (255 - alpha)) / 255;
}

/** `image` turned by 180° (a line the direction classifier found upside down). */
export function rotateHalfTurn(image: RgbaImage): RgbaImage {
  const out = new Uint8Array(image.data.length);
  const pixels = image.width * image.height;
  for (let p = 0; p < pixels; p++) {
    const q = pixels - 1 - p;
    out[q * 4] = image.data[p * 4]!;
    out[q * 4 + 1] = image.data[p * 4 + 1]!;
    out[q * 4 + 2] = image.data[p * 4 + 2]!;
    out[q * 4 + 3] = image.data[p * 4 + 3]!;
  }
  return { data: out, width: image.width, height: image.height };
}

/**
 * Planar float input for a PaddleOCR model: channels in B, G, R order (Paddle reads images with OpenCV),
 * each value `(v / 255 - mean) / std`, written into `into` at `offset` with row stride `stride` (≥ width,
 * so a batch can share one padded width; the padding stays 0).
 */
export function toPlanar(
  image: RgbaImage, mean: readonly number[], std: readonly number[],
  into: Float32Array, offset: number, stride: number, planeSize: number,
): void {
  const { data, width, height } = image;
  for (let c = 0; c < 3; c++) {
    const source = 2 - c; // B, G, R
    const m = mean[c]!;
    const s = std[c]!;
    const plane = offset + c * planeSize;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        into[plane + y * stride + x] = (data[(y * width + x) * 4 + source]! / 255 - m) / s;
      }
    }
  }
}
