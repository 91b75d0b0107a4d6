/** The generated model's files; that it actually runs is tested through the real pipeline in transformers.test.ts. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/temp';
import { TEST_MODEL_ID, writeTestModel } from './test-model';
import { SPECIAL_TOKENS, commonChineseCharacters, testModelVocabulary } from './test-model-vocab';

const FILES = ['onnx/model.onnx', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json'];

describe('writeTestModel', () => {
  it('writes every file transformers.js needs under <dir>/<modelId>, each under 2 MB', async () => {
    const dir = tempDir();
    const result = await writeTestModel(dir);
    expect(result).toEqual({ modelId: TEST_MODEL_ID, dimension: 64 });
    for (const file of FILES) {
      const size = fs.statSync(path.join(dir, 'sift-test', 'tiny-embedder', file)).size;
      expect(size, file).toBeGreaterThan(0);
      expect(size, file).toBeLessThan(2 * 1024 * 1024);
    }
    const config = JSON.parse(fs.readFileSync(path.join(dir, TEST_MODEL_ID, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config.hidden_size).toBe(64);
    expect(config.vocab_size).toBe(testModelVocabulary().length);
  });

  it('honours modelId and dimension, and writes the same bytes twice', async () => {
    const [a, b] = [tempDir(), tempDir()];
    await writeTestModel(a, { modelId: 'me/other', dimension: 16 });
    await writeTestModel(b, { modelId: 'me/other', dimension: 16 });
    for (const file of FILES) {
      expect(fs.readFileSync(path.join(a, 'me', 'other', file)).equals(fs.readFileSync(path.join(b, 'me', 'other', file))), file).toBe(true);
    }
    const small = fs.statSync(path.join(a, 'me', 'other', 'onnx', 'model.onnx')).size;
    expect(small).toBeLessThan(testModelVocabulary().length * 16 * 4 + 4096);
  });

  it.each([0, -1, 2.5, 5000])('refuses dimension %s', async (dimension) => {
    await expect(writeTestModel(tempDir(), { dimension })).rejects.toThrow(/dimension/);
  });
});

describe('scripts/make-test-model.ts', () => {
  const run = (args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/make-test-model.ts', ...args]);

  it('writes the model and prints its id and dimension', async () => {
    const dir = tempDir();
    const { stdout } = await run([dir, '--model-id', 'me/cli-model', '--dimension', '8']);
    expect(stdout).toContain('model id: me/cli-model');
    expect(stdout).toContain('dimension: 8');
    expect(fs.existsSync(path.join(dir, 'me', 'cli-model', 'onnx', 'model_quantized.onnx'))).toBe(true);
  });

  it('exits with code 2 and the usage line when the folder is missing', async () => {
    const error = (await run([]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(error.code).toBe(2);
    expect(error.stderr).toMatch(/usage: make-test-model DIR/);
  });
});

describe('testModelVocabulary', () => {
  const vocabulary = testModelVocabulary();

  it('starts with the special tokens, [PAD] first, and has no duplicates', () => {
    expect(vocabulary.slice(0, SPECIAL_TOKENS.length)).toEqual([...SPECIAL_TOKENS]);
    expect(new Set(vocabulary).size).toBe(vocabulary.length);
  });

  it.each(['a', 'z', '0', '9', '#', '~', '##e', 'timeout', 'retry', '##ab', '超', '时', '重', '试', '的', '，', '。'])(
    'contains %s',
    (token) => expect(vocabulary).toContain(token),
  );

  it('has no upper-case letters, since the tokenizer lower-cases first', () => {
    expect(vocabulary.filter((token) => !token.startsWith('[') && /[A-Z]/.test(token))).toEqual([]);
  });

  it('covers the 3,755 most common Chinese characters', () => {
    const chars = commonChineseCharacters();
    expect(chars).toHaveLength(3755);
    expect(chars.every((c) => c >= '\u4e00' && c <= '\u9fff')).toBe(true);
  });
});
