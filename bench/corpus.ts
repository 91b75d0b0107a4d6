/**
 * A deterministic generator of Markdown notes that look like what Sift's users keep: runbooks and
 * design notes in Chinese and English side by side, with headings, lists, code blocks, front
 * matter and identifiers such as `E_CONN_RESET`, `api-gateway` or `v1/chat`. The same seed and
 * generator version always give the same bytes, so figures measured on two machines (or two
 * commits) are about the same text.
 *
 * The written corpus is cached under the OS temp folder, keyed by generator version and size:
 * bump {@link GENERATOR_VERSION} whenever the output changes, or old caches would be reused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Random } from './random';
import { CHINESE, ENGLISH, IDENTIFIERS } from './vocabulary';

export { Random } from './random';

/** Version of the generator's output; part of every cache key. */
export const GENERATOR_VERSION = 2;

const FENCE_LANGUAGES = ['bash', 'yaml', 'json', 'ts', 'sql', 'text'];

// Folder names: everyday words in both languages; none of them is a folder the scan skips by name.
const TOP_FOLDERS = [
  'runbooks', 'design', 'meetings', 'incidents', 'research', 'onboarding', 'infra', 'platform', 'search',
  'billing', '运维手册', '设计文档', '会议纪要', '事故复盘', '研究笔记', '新人指南', '基础设施', '平台', '客户支持', 'archive',
];
const SUB_FOLDERS = [
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'api', 'storage', 'network', 'security', 'perf',
  '网关', '存储', '网络', '安全', '性能',
];

/** Distinct folders the corpus spreads its files over: every top folder × every sub folder. */
export const FOLDER_COUNT = TOP_FOLDERS.length * SUB_FOLDERS.length;

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Query text like a person types: a few content words, a Chinese word or two, often an identifier. */
export function queryText(rng: Random): string {
  switch (rng.int(5)) {
    case 0:
      return `${ENGLISH.contentWord(rng)} ${ENGLISH.contentWord(rng)} ${ENGLISH.contentWord(rng)}`;
    case 1:
      return `${CHINESE.contentWord(rng)}${CHINESE.contentWord(rng)}`;
    case 2:
      return IDENTIFIERS.word(rng);
    case 3:
      return `${IDENTIFIERS.word(rng)} ${CHINESE.contentWord(rng)}`;
    default:
      return `${CHINESE.contentWord(rng)} ${ENGLISH.contentWord(rng)} ${IDENTIFIERS.word(rng)}`;
  }
}

/** An English sentence of 8–20 words, sometimes quoting an identifier. */
export function englishSentence(rng: Random): string {
  const words: string[] = [];
  const n = rng.between(8, 20);
  for (let i = 0; i < n; i++) words.push(rng.chance(0.03) ? `\`${IDENTIFIERS.word(rng)}\`` : ENGLISH.word(rng));
  return `${capitalise(words.join(' '))}.`;
}

/** A Chinese sentence of 6–15 words (no spaces between them), sometimes with an English term or identifier. */
export function chineseSentence(rng: Random): string {
  let out = '';
  const n = rng.between(6, 15);
  for (let i = 0; i < n; i++) {
    if (rng.chance(0.07)) out += ` ${rng.chance(0.5) ? IDENTIFIERS.word(rng) : ENGLISH.contentWord(rng)} `;
    else out += CHINESE.word(rng);
  }
  return `${out.trim()}${rng.chance(0.8) ? '。' : '，'}`;
}

/** A paragraph of 2–6 sentences; `chinese` (0–1) is the share of Chinese sentences. */
export function paragraph(rng: Random, chinese: number): string {
  const sentences: string[] = [];
  const n = rng.between(2, 6);
  for (let i = 0; i < n; i++) sentences.push(rng.chance(chinese) ? chineseSentence(rng) : englishSentence(rng));
  return sentences.join(' ');
}

/** A heading's text, in either language. */
export function headingText(rng: Random, chinese: number): string {
  if (rng.chance(chinese)) return `${CHINESE.contentWord(rng)}${CHINESE.contentWord(rng)}`;
  return capitalise(`${ENGLISH.contentWord(rng)} ${ENGLISH.contentWord(rng)}`);
}

function listBlock(rng: Random, chinese: number): string {
  const items: string[] = [];
  for (let i = rng.between(3, 6); i > 0; i--) {
    items.push(`- ${rng.chance(chinese) ? chineseSentence(rng) : englishSentence(rng)}`);
  }
  return items.join('\n');
}

function codeBlock(rng: Random): string {
  const lines: string[] = [];
  for (let i = rng.between(2, 8); i > 0; i--) {
    lines.push(`${ENGLISH.contentWord(rng)}_${ENGLISH.contentWord(rng)} = "${IDENTIFIERS.word(rng)}"  # ${ENGLISH.word(rng)}`);
  }
  return `\`\`\`${rng.pick(FENCE_LANGUAGES)}\n${lines.join('\n')}\n\`\`\``;
}

function frontMatter(rng: Random, title: string): string {
  const tags = [ENGLISH.contentWord(rng), CHINESE.contentWord(rng), ENGLISH.contentWord(rng)];
  return `---\ntitle: "${title}"\ntags: [${tags.join(', ')}]\nteam: ${rng.pick(TOP_FOLDERS)}\n---\n\n`;
}

/** The size a file aims for, in bytes: mostly 1–12 KB (mean about 5 KB), one in a hundred 30–120 KB. */
function targetBytes(rng: Random): number {
  if (rng.chance(0.01)) return rng.between(30_000, 120_000);
  const r = rng.next();
  return 600 + Math.floor(r * r * 11_500);
}

/** One Markdown note of about `bytes` bytes (UTF-8), deterministic for a given stream state. */
export function markdownNote(rng: Random, bytes: number): string {
  const chinese = rng.pick([0, 0.2, 0.5, 0.5, 0.8, 1]);
  const title = headingText(rng, chinese);
  const parts: string[] = [];
  let size = 0;
  const add = (block: string) => {
    parts.push(block);
    size += Buffer.byteLength(block, 'utf8') + 2;
  };
  if (rng.chance(0.3)) add(frontMatter(rng, title).trimEnd());
  add(`# ${title}`);
  while (size < bytes) {
    const roll = rng.next();
    if (roll < 0.12) add(`${rng.chance(0.7) ? '##' : '###'} ${headingText(rng, chinese)}`);
    else if (roll < 0.22) add(listBlock(rng, chinese));
    else if (roll < 0.27) add(codeBlock(rng));
    else add(paragraph(rng, chinese));
  }
  return `${parts.join('\n\n')}\n`;
}

/** Where file number `i` of the corpus lives, relative to the corpus folder. */
export function notePath(i: number, rng: Random): string {
  const top = TOP_FOLDERS[i % TOP_FOLDERS.length]!;
  const sub = SUB_FOLDERS[Math.floor(i / TOP_FOLDERS.length) % SUB_FOLDERS.length]!;
  const name = rng.chance(0.3) ? `${CHINESE.contentWord(rng)}-${i}` : `${ENGLISH.contentWord(rng)}-${ENGLISH.contentWord(rng)}-${i}`;
  return path.join(top, sub, `${name}.md`);
}

/** What a written corpus holds. */
export interface CorpusInfo {
  /** Folder holding the notes (the folder to add to a knowledge base). */
  dir: string;
  version: number;
  files: number;
  bytes: number;
  folders: number;
  /** True when this call wrote it; false when a cached copy was reused. */
  generated: boolean;
  /** Seconds spent writing it (0 when reused). */
  seconds: number;
}

/** The folder benchmarks keep their generated data in: `$SIFT_BENCH_DIR`, else `<tmp>/sift-bench`. */
export function benchCacheDir(): string {
  return process.env.SIFT_BENCH_DIR || path.join(os.tmpdir(), 'sift-bench');
}

/**
 * The corpus of `files` notes (seeded by `seed`, default 1), written once and reused: a manifest
 * beside the folder records version, size and byte count, and a corpus without a matching
 * manifest (interrupted, older generator) is deleted and written again.
 */
export function ensureCorpus(files: number, seed = 1): CorpusInfo {
  const key = `corpus-v${GENERATOR_VERSION}-n${files}-s${seed}`;
  const dir = path.join(benchCacheDir(), key);
  const manifest = `${dir}.json`;
  if (fs.existsSync(manifest) && fs.existsSync(dir)) {
    const saved = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Omit<CorpusInfo, 'dir' | 'generated' | 'seconds'>;
    if (saved.version === GENERATOR_VERSION && saved.files === files) return { ...saved, dir, generated: false, seconds: 0 };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const rng = new Random(seed);
  const made = new Set<string>();
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const rel = notePath(i, rng);
    const text = markdownNote(rng, targetBytes(rng));
    const abs = path.join(dir, rel);
    if (!made.has(path.dirname(abs))) {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      made.add(path.dirname(abs));
    }
    fs.writeFileSync(abs, text);
    bytes += Buffer.byteLength(text, 'utf8');
  }
  const info = { version: GENERATOR_VERSION, files, bytes, folders: made.size };
  fs.writeFileSync(manifest, JSON.stringify(info));
  return { ...info, dir, generated: true, seconds: (performance.now() - t0) / 1000 };
}
