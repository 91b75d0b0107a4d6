/**
 * The OCR engine on pages drawn at test time with real fonts, read by the real PP-OCRv4 models: text within 3 %
 * character error rate in English and Chinese, boxes where the text was drawn, layout and decoding edge cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceSession } from 'onnxruntime-node';
import { createOcrEngine, defaultModels, layoutPage, recogniserClasses, type OcrEngine } from './engine';
import { openOcrModel } from './graph';
import { decodeImage, rotateHalfTurn } from './image';
import { shareLines } from './lines';
import { ctcGreedy, cutLines, readLineImages } from './recognise';
import { CHINESE_LINES, ENGLISH_LINES, FONTS, characterErrorRate, drawPage, manyEnglishLines } from './testing/scans';

let engine: OcrEngine;
beforeAll(async () => {
  engine = await createOcrEngine(); // two threads: the lines read by two line workers
}, 60_000);
afterAll(() => engine.close());

/** True when box `outer` holds most of `inner` (OCR boxes are a little loose or tight at the edges). */
function covers(outer: number[], inner: number[]): boolean {
  const w = Math.max(0, Math.min(outer[2]!, inner[2]!) - Math.max(outer[0]!, inner[0]!));
  const h = Math.max(0, Math.min(outer[3]!, inner[3]!) - Math.max(outer[1]!, inner[1]!));
  return w * h >= 0.8 * (inner[2]! - inner[0]!) * (inner[3]! - inner[1]!);
}

describe('OCR engine (PP-OCRv4 on onnxruntime-node)', () => {
  const cases = [
    { language: 'English', lines: ENGLISH_LINES, font: FONTS.serif.family },
    { language: 'English', lines: ENGLISH_LINES, font: FONTS.sans.family },
    { language: 'Chinese', lines: CHINESE_LINES, font: FONTS.sans.family },
    { language: 'Chinese', lines: CHINESE_LINES, font: FONTS.serifCjk.family },
  ];
  for (const { language, lines, font } of cases) {
    it(`reads ${language} in ${font} within 3 % CER, each line boxed where it was drawn`, async () => {
      const drawn = drawPage(lines, { family: font });
      const page = await engine.read(await decodeImage(drawn.bytes, 'png'));
      expect(page.width).toBe(drawn.width);
      const cer = characterErrorRate(lines.join('\n'), page.text);
      expect(cer).toBeLessThanOrEqual(0.03);
      expect(page.confidence).toBeGreaterThan(0.8);
      for (const line of drawn.lines) {
        const found = page.lines.find((l) => covers(l.box, line.box));
        expect(found, `a box around "${line.text}"`).toBeDefined();
        expect(characterErrorRate(line.text, page.text.slice(found!.start, found!.end))).toBeLessThanOrEqual(0.1);
      }
    }, 60_000);
  }

  it('reads small print on a full A4 page, each line on its own', async () => {
    // 14 px text on a 1240 × 1754 page: detected at 960 px (PaddleOCR's size) its boxes reach into the next line
    // and CER was 10.6 %; at 1600 px it reads whole
    const lines = manyEnglishLines(20);
    const drawn = drawPage(lines, { family: FONTS.sans.family, size: 14 });
    const page = await engine.read(await decodeImage(drawn.bytes, 'png'));
    expect(characterErrorRate(lines.join('\n'), page.text)).toBeLessThanOrEqual(0.03);
    expect(page.lines).toHaveLength(lines.length);
  }, 60_000);

  it('reads a JPEG and a WebP the same as a PNG', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      const drawn = drawPage(ENGLISH_LINES.slice(0, 2), { family: FONTS.serif.family, format, width: 900, height: 300 });
      const page = await engine.read(await decodeImage(drawn.bytes, format === 'jpeg' ? 'jpg' : 'webp'));
      expect(characterErrorRate(ENGLISH_LINES.slice(0, 2).join('\n'), page.text)).toBeLessThanOrEqual(0.03);
    }
  }, 60_000);

  it('never turns a level line over when the direction classifier misjudges it', async () => {
    // this page has three lines the classifier calls upside down (with p ≥ 0.9); turned, they read as "n", "Srs"
    const lines = [...manyEnglishLines(14), ...ENGLISH_LINES];
    const drawn = drawPage(lines, { family: FONTS.serif.family, size: 24 });
    const page = await engine.read(await decodeImage(drawn.bytes, 'png'));
    expect(characterErrorRate(lines.join('\n'), page.text)).toBeLessThanOrEqual(0.03);
    expect(page.lines).toHaveLength(lines.length);
  }, 60_000);

  it('reads a line that is really upside down', async () => {
    const drawn = drawPage(ENGLISH_LINES.slice(3, 4), { family: FONTS.serif.family, width: 1000, height: 240 });
    const page = await engine.read(rotateHalfTurn(await decodeImage(drawn.bytes, 'png')));
    expect(characterErrorRate(ENGLISH_LINES[3]!, page.text)).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('keeps the spaces between words', async () => {
    const drawn = drawPage(ENGLISH_LINES.slice(0, 1), { family: FONTS.serif.family, width: 900, height: 300 });
    const page = await engine.read(await decodeImage(drawn.bytes, 'png'));
    expect(page.text).toBe(ENGLISH_LINES[0]);
  }, 60_000);

  it('reads nothing from a blank page, with confidence 0', async () => {
    const drawn = drawPage([], { family: FONTS.serif.family, width: 400, height: 300 });
    const page = await engine.read(await decodeImage(drawn.bytes, 'png'));
    expect(page).toMatchObject({ text: '', lines: [], confidence: 0 });
  }, 60_000);

  it('refuses bytes that are not an image, saying why', async () => {
    await expect(decodeImage(Buffer.from('not an image at all'), 'png')).rejects.toThrow(/the image could not be read: /);
  });
});

describe('the direction classifier', () => {
  it('is asked only about the lines read with doubt, and a turned line still reads', async () => {
    const ort = await import('onnxruntime-node');
    const models = defaultModels();
    const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' } as const;
    const classifier = await openOcrModel(ort, models.classifier, true, options);
    const recognition = await openOcrModel(ort, models.recognition, true, options);
    const dictionary = recogniserClasses(models);
    // the real session, counting the lines it is asked about
    const asked: number[] = [];
    const counted = new Proxy(classifier, {
      get: (target, key) => (key === 'run'
        ? (feeds: InferenceSession.FeedsType) => (asked.push(Object.values(feeds)[0]!.dims[0]!), target.run(feeds))
        : Reflect.get(target, key)),
    });
    const level = drawPage(ENGLISH_LINES.slice(0, 3), { family: FONTS.serif.family, width: 1000, height: 400 });
    const image = await decodeImage(level.bytes, 'png');
    // the drawn text's boxes with the margin detection leaves around a line
    type Box = (typeof level.lines)[number]['box'];
    const boxes = level.lines.map(({ box: [x0, y0, x1, y1] }): Box => [x0 - 10, y0 - 10, x1 + 10, y1 + 10]);
    const texts = await readLineImages(counted, recognition, ort, cutLines(image, boxes), dictionary);
    expect(texts.map((t) => t.text.trim())).toEqual(ENGLISH_LINES.slice(0, 3));
    expect(asked).toEqual([]);
    // the same lines with the middle one upside down: only that one is classified, and it reads right way up
    const lines = cutLines(image, boxes);
    lines[1] = rotateHalfTurn(lines[1]!);
    const mixed = await readLineImages(counted, recognition, ort, lines, dictionary);
    expect(asked).toEqual([1]);
    expect(characterErrorRate(ENGLISH_LINES[1]!, mixed[1]!.text)).toBeLessThanOrEqual(0.03);
    await Promise.all([classifier.release(), recognition.release()]);
  }, 60_000);
});

describe('line workers', () => {
  it('read a page the same as one thread reading every line, in the lines\' order', async () => {
    const single = await createOcrEngine(undefined, { threads: 1 });
    const three = await createOcrEngine(undefined, { threads: 2, lineWorkers: 3 });
    try {
      const drawn = drawPage(manyEnglishLines(14), { family: FONTS.sans.family });
      const image = await decodeImage(drawn.bytes, 'png');
      const expected = await single.read(image);
      expect(expected.lines.length).toBe(14);
      expect(await three.read(image)).toEqual(expected);
      expect(await engine.read(image)).toEqual(expected);
    } finally {
      await Promise.all([single.close(), three.close()]);
    }
  }, 60_000);

  it('share a page\'s lines by width, longest first to the lightest share', () => {
    expect(shareLines([100, 900, 400, 500, 300], 2)).toEqual([[1, 4], [0, 2, 3]]);
    expect(shareLines([50, 60], 4)).toEqual([[1], [0]]);
    expect(shareLines([], 2)).toEqual([]);
  });

  it('refuses a count it cannot start', async () => {
    await expect(createOcrEngine(undefined, { lineWorkers: -1 })).rejects.toThrow(/lineWorkers must be a whole number from 0 to 16/);
  });
});

describe('detection in bands', () => {
  it('reads a page in bands of rows as well as whole: every line boxed where it was drawn, its text as exact', async () => {
    const whole = await createOcrEngine(undefined, { stripRows: 0 });
    const small = await createOcrEngine(undefined, { stripRows: 256 });
    try {
      // 20 lines down a full A4 page: scaled to 1600 rows, bands of 640 (the default) and of 256 cut through lines.
      const lines = manyEnglishLines(20);
      const drawn = drawPage(lines, { family: FONTS.sans.family, size: 14 });
      const image = await decodeImage(drawn.bytes, 'png');
      const expected = await whole.read(image);
      for (const page of [await engine.read(image), await small.read(image)]) {
        expect(page.lines).toHaveLength(expected.lines.length);
        expect(characterErrorRate(lines.join('\n'), page.text)).toBeLessThanOrEqual(characterErrorRate(lines.join('\n'), expected.text));
        for (const line of drawn.lines) {
          const found = page.lines.find((l) => covers(l.box, line.box));
          expect(found, `a box around "${line.text}"`).toBeDefined();
          expect(page.text.slice(found!.start, found!.end).replace(/\s/g, '')).toBe(line.text.replace(/\s/g, ''));
        }
      }
    } finally {
      await Promise.all([whole.close(), small.close()]);
    }
  }, 120_000);

  it('refuses bands it cannot read', async () => {
    for (const stripRows of [100, 96, -32, 640.5]) {
      await expect(createOcrEngine(undefined, { stripRows })).rejects.toThrow(/stripRows must be 0 or a multiple of 32 above 128/);
    }
  });
});

describe('layoutPage', () => {
  it('orders boxes into rows, left to right, and gives each its span', () => {
    const page = layoutPage(100, 100, [
      { box: [50, 10, 90, 20], text: 'b', confidence: 0.5 },
      { box: [0, 40, 40, 50], text: 'cc', confidence: 1 },
      { box: [0, 11, 40, 21], text: 'a', confidence: 1 },
    ]);
    expect(page.text).toBe('a b\ncc');
    expect(page.lines.map((l) => page.text.slice(l.start, l.end))).toEqual(['a', 'b', 'cc']);
    expect(page.confidence).toBe(0.875); // by characters: (1 + 0.5 + 2) / 4
  });
});

describe('ctcGreedy', () => {
  it('drops blanks and repeats, and averages the kept steps', () => {
    // classes: 0 blank, 1 'a', 2 'b'; steps: a a blank a b
    const probs = new Float32Array([0.1, 0.9, 0, 0.2, 0.8, 0, 1, 0, 0, 0.3, 0.7, 0, 0, 0.4, 0.6]);
    const read = ctcGreedy(probs, 5, 3, ['a', 'b']);
    expect(read.text).toBe('aab');
    expect(read.confidence).toBeCloseTo((0.9 + 0.7 + 0.6) / 3, 5);
  });
});
