/**
 * Write Sift's tiny test embedding model into a folder, for trying Sift offline or for tests outside vitest.
 *
 * Usage:
 *   npm run make-test-model -- DIR [--model-id OWNER/NAME] [--dimension N]
 *   npx tsx scripts/make-test-model.ts DIR [--model-id OWNER/NAME] [--dimension N]
 *
 * Writes DIR/<model id>/{config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx,
 * onnx/model_quantized.onnx} (defaults: model id 'sift-test/tiny-embedder', dimension 64) and prints
 * the model id and dimension. Use it as the embedding model with DIR as the models folder (or as the
 * local model folder) and that model id. It is a bag-of-tokens model, not a real language model:
 * good for checking that indexing and vector search work, useless for real ranking quality.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestModel } from '../electron/core/embed/testing/test-model';

/** What the command line asked for. */
export interface MakeTestModelArgs {
  dir: string;
  modelId?: string;
  dimension?: number;
}

const USAGE = 'usage: make-test-model DIR [--model-id OWNER/NAME] [--dimension N]';

/** Parse `DIR [--model-id ID] [--dimension N]`; throws an Error carrying the usage line when malformed. */
export function parseMakeTestModelArgs(argv: string[]): MakeTestModelArgs {
  const rest = [...argv];
  const result: Partial<MakeTestModelArgs> = {};
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--model-id') result.modelId = rest.shift();
    else if (arg === '--dimension') result.dimension = Number(rest.shift());
    else if (arg.startsWith('-') || result.dir !== undefined) throw new Error(`unexpected argument "${arg}"\n${USAGE}`);
    else result.dir = arg;
  }
  if (!result.dir) throw new Error(`the folder to write to is missing\n${USAGE}`);
  if (result.modelId !== undefined && !/^[\w.-]+(\/[\w.-]+)?$/.test(result.modelId)) throw new Error(`--model-id must look like owner/name\n${USAGE}`);
  if (result.dimension !== undefined && !Number.isInteger(result.dimension)) throw new Error(`--dimension must be a whole number\n${USAGE}`);
  return result as MakeTestModelArgs;
}

/** Write the model as `argv` asks and print where it went; returns the process exit code. */
export async function makeTestModel(argv: string[]): Promise<number> {
  let args: MakeTestModelArgs;
  try {
    args = parseMakeTestModelArgs(argv);
  } catch (error) {
    console.error(`make-test-model: ${(error as Error).message}`);
    return 2;
  }
  const dir = path.resolve(args.dir);
  let written: { modelId: string; dimension: number };
  try {
    written = await writeTestModel(dir, { modelId: args.modelId, dimension: args.dimension });
  } catch (error) {
    console.error(`make-test-model: could not write to ${dir}: ${(error as Error).message}`);
    return 1;
  }
  const { modelId, dimension } = written;
  console.log(`wrote test model to ${path.join(dir, modelId)}`);
  console.log(`model id: ${modelId}`);
  console.log(`dimension: ${dimension}`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await makeTestModel(process.argv.slice(2));
}
