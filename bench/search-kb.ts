/**
 * Builds a knowledge base of exactly N chunks for the search benchmark, fast: pages are generated
 * as PreparedPage objects (one chunk per paragraph, tokens via the real tokenizer) and written
 * with the engine's own `writePage`; vectors are seeded synthetic 384-dim unit vectors written
 * with `useModel` + `writeVectors`. No parsing, no model. The result is cached under the bench
 * folder, keyed by generator version, vector kind and size.
 *
 * Vectors are clustered: 1,000 random centres ("topics"); a page leans to one centre (70 % of its
 * chunks; the rest pick one at random) and a query to one. Kinds (see MIXES):
 * - `cone` (default): all vectors also share one direction, so two random chunks are about cos 0.7
 *   apart and two of one topic about 0.85 — the narrow cone e5-family models produce, which is the
 *   hard case for sign bits (the shared direction fixes many bits for every vector);
 * - `clustered`: no shared direction; same-topic cos ≈ 0.5, random ≈ 0 (easy for sign bits);
 * - `random`: uniform unit vectors, every distance about the same (the worst case).
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { writePage, type PreparedPage } from '../electron/core/ingest/page-store';
import { PAGE_FEATURES } from '../electron/core/page-features';
import type { ParsedDocument } from '../electron/core/ingest/types';
import type { Heading } from '../electron/core/store/page-model';
import { useModel, writeVectors } from '../electron/core/store/vectors';
import { dataPaths } from '../electron/core/base/paths';
import { createSift } from '../electron/core/sift';
import { kbMigrations } from '../electron/core/store/migrations/kb';
import { openDatabase } from '../electron/core/store/open';
import { contentHash } from '../electron/core/text/chunk';
import { toIndexText } from '../electron/core/text/tokenize';
import { benchCacheDir, chineseSentence, englishSentence, GENERATOR_VERSION, headingText } from './corpus';
import { Random } from './random';

/** Version of this builder's output (with the corpus generator's); part of the cache key. 3: section keyword rows. */
export const SEARCH_KB_VERSION = 3;
/** Vector length of the synthetic model (the default model's). */
export const DIMENSION = 384;
/** Cluster centres ("topics"). */
export const CLUSTERS = 1000;
/** Seed of the shared direction and the cluster centres, common to chunk and query vectors. */
export const CENTRE_SEED = 384;

/** How the synthetic vectors are made (see the file comment). */
export type VectorKind = 'cone' | 'clustered' | 'random';

/**
 * Squared weights of a vector's parts: a direction shared by all, its cluster's centre, and noise
 * of its own (unit vectors, nearly orthogonal in 384 dims). The expected cosine of two random
 * vectors is then `shared`, of two of one cluster `shared + centre`.
 */
export const MIXES: Record<VectorKind, { shared: number; centre: number; noise: number }> = {
  cone: { shared: 0.7, centre: 0.15, noise: 0.15 },
  clustered: { shared: 0, centre: 0.5, noise: 0.5 },
  random: { shared: 0, centre: 0, noise: 1 },
};

/** A built benchmark knowledge base. */
export interface SearchKb {
  db: Database.Database;
  /** Model id recorded in it; the fake query embedder must report the same. */
  modelId: string;
  chunks: number;
  pages: number;
  /** Seconds spent building (0 when reused from the cache). */
  buildSeconds: number;
  file: string;
}

/** Unit vectors drawn from a seeded stream, for chunks and for queries alike. */
export class VectorSource {
  private readonly centres: Float32Array[] = [];
  private readonly shared: Float32Array;
  private rng: Random;

  /**
   * CENTRE_SEED fixes the shared direction and the centres (chunks and queries share them);
   * `drawSeed` the stream the vectors themselves come from (different for chunks and queries).
   */
  constructor(readonly kind: VectorKind, drawSeed: number) {
    this.rng = new Random(CENTRE_SEED);
    this.shared = this.gaussianUnit();
    for (let i = 0; i < CLUSTERS; i++) this.centres.push(this.gaussianUnit());
    this.rng = new Random(drawSeed);
  }

  /** A cluster to lean a page (or a query) towards. */
  cluster(): number {
    return this.rng.int(CLUSTERS);
  }

  /** A unit vector of cluster `c`, mixed as MIXES[kind] says. */
  vector(c: number): Float32Array {
    const mix = MIXES[this.kind];
    const [a, b, n] = [Math.sqrt(mix.shared), Math.sqrt(mix.centre), Math.sqrt(mix.noise)];
    const centre = this.centres[c]!;
    const noise = this.gaussianUnit();
    const v = new Float32Array(DIMENSION);
    for (let i = 0; i < DIMENSION; i++) v[i] = a * this.shared[i]! + b * centre[i]! + n * noise[i]!;
    return unit(v);
  }

  private gaussianUnit(): Float32Array {
    const v = new Float32Array(DIMENSION);
    for (let i = 0; i < DIMENSION; i++) v[i] = this.rng.gaussian();
    return unit(v);
  }
}

function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const n = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}

/** A chunk-sized paragraph: sentences until at least 300 characters. */
function chunkText(rng: Random, chinese: number): string {
  let text = '';
  while (text.length < 300) text += (text ? ' ' : '') + (rng.chance(chinese) ? chineseSentence(rng) : englishSentence(rng));
  return text;
}

/** One page of `chunkCount` chunks in sections of 2–5 paragraphs, as the ingest worker would hand it over. */
export function generatePage(rng: Random, n: number, chunkCount: number): PreparedPage {
  const chinese = rng.pick([0, 0.2, 0.5, 0.8, 1]);
  const title = headingText(rng, chinese);
  const relPath = `topic-${n % 97}/${title.replace(/\s+/g, '-').toLowerCase()}-${n}.md`;
  let text = `# ${title}\n\n`;
  const headings: Heading[] = [{ start: 0, end: title.length + 2, level: 1, text: title }];
  const sections: PreparedPage['sections'] = [];
  const chunks: PreparedPage['chunks'] = [];
  while (chunks.length < chunkCount) {
    const heading = headingText(rng, chinese);
    const start = text.length;
    text += `## ${heading}\n\n`;
    headings.push({ start, end: start + heading.length + 3, level: 2, text: heading });
    const sectionIndex = sections.length;
    for (let k = rng.between(2, 5); k > 0 && chunks.length < chunkCount; k--) {
      const body = chunkText(rng, chinese);
      chunks.push({ index: chunks.length, sectionIndex, start: text.length, end: text.length + body.length, hash: contentHash(body), tokens: toIndexText(body) });
      text += `${body}\n\n`;
    }
    sections.push({ index: sectionIndex, start: sectionIndex === 0 ? 0 : start, end: text.length, headingPath: [title, heading] });
  }
  const doc: ParsedDocument = { kind: 'markdown', text, title, metadata: {}, headings, pages: null, language: null, encoding: 'utf-8' };
  return {
    folder: '/bench', relPath, size: Buffer.byteLength(text), mtimeMs: 0, sha256: contentHash(text), path: `wiki/${relPath}`,
    title, doc, titleTokens: toIndexText(title), pathTokens: toIndexText(relPath), sections, chunks,
  };
}

/** Write pages until the knowledge base holds `total` chunks; returns the page count. */
function writePages(db: Database.Database, rng: Random, total: number): number {
  let written = 0;
  let pages = 0;
  const batch = db.transaction((list: PreparedPage[]) => list.forEach((p) => writePage(db, p, { features: PAGE_FEATURES })));
  let pending: PreparedPage[] = [];
  while (written < total) {
    const count = Math.min(total - written, rng.between(6, 20));
    pending.push(generatePage(rng, pages++, count));
    written += count;
    if (pending.length >= 200) {
      batch(pending);
      pending = [];
    }
  }
  batch(pending);
  return pages;
}

/** Give every chunk a vector: pages lean to one cluster, 30 % of chunks stray to another. */
function writeAllVectors(db: Database.Database, source: VectorSource, modelId: string): void {
  useModel(db, { id: modelId, dimension: DIMENSION });
  const rows = db.prepare(`SELECT id AS chunkId, hash, page_id AS pageId FROM chunks ORDER BY id`).all() as { chunkId: number; hash: string; pageId: number }[];
  const pageCluster = new Map<number, number>();
  for (let i = 0; i < rows.length; i += 1000) {
    const items = rows.slice(i, i + 1000).map((r) => {
      if (!pageCluster.has(r.pageId)) pageCluster.set(r.pageId, source.cluster());
      const cluster = strays(r.chunkId) ? source.cluster() : pageCluster.get(r.pageId)!;
      return { chunkId: r.chunkId, hash: r.hash, vector: source.vector(cluster) };
    });
    writeVectors(db, items);
  }
}

/** A fixed 30 % of chunks (by id) that do not follow their page's cluster. */
function strays(chunkId: number): boolean {
  return (Math.imul(chunkId, 0x9e3779b1) >>> 0) % 10 < 3;
}

interface Manifest {
  kbId: string;
  pages: number;
}

function readManifest(file: string): Manifest | null {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : null;
}

/** A data folder with one knowledge base of `chunks` chunks and no vectors (cached; shared by every vector kind). */
async function ensurePages(chunks: number): Promise<{ dataDir: string; manifest: Manifest }> {
  const dataDir = path.join(benchCacheDir(), `search-v${GENERATOR_VERSION}.${SEARCH_KB_VERSION}-pages-n${chunks}`);
  const saved = readManifest(`${dataDir}.json`);
  if (saved && fs.existsSync(dataDir)) return { dataDir, manifest: saved };
  fs.rmSync(dataDir, { recursive: true, force: true });
  const sift = createSift({ dataDir, embedding: { provider: 'none' } });
  const kb = await sift.handlers['kb.create']({ name: 'bench-search' });
  await sift.close();
  const db = openDatabase(dataPaths(dataDir).kbDb(kb.id), kbMigrations, 'the search benchmark index', { vectors: true });
  const manifest = { kbId: kb.id, pages: writePages(db, new Random(chunks), chunks) };
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.writeFileSync(`${dataDir}.json`, JSON.stringify(manifest));
  return { dataDir, manifest };
}

/**
 * Open the cached knowledge base of `chunks` chunks with `kind` vectors, building it first when
 * missing: a copy of the pages-only knowledge base of that size, plus vectors.
 */
export async function ensureSearchKb(chunks: number, kind: VectorKind): Promise<SearchKb> {
  const dataDir = path.join(benchCacheDir(), `search-v${GENERATOR_VERSION}.${SEARCH_KB_VERSION}-${kind}-n${chunks}`);
  const modelId = `bench:${kind}-${DIMENSION}`;
  let buildSeconds = 0;
  let manifest = fs.existsSync(dataDir) ? readManifest(`${dataDir}.json`) : null;
  if (!manifest) {
    const t0 = performance.now();
    const pages = await ensurePages(chunks);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.cpSync(pages.dataDir, dataDir, { recursive: true });
    const db = openDatabase(dataPaths(dataDir).kbDb(pages.manifest.kbId), kbMigrations, 'the search benchmark index', { vectors: true });
    writeAllVectors(db, new VectorSource(kind, chunks + 1), modelId);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    manifest = pages.manifest;
    fs.writeFileSync(`${dataDir}.json`, JSON.stringify(manifest));
    buildSeconds = (performance.now() - t0) / 1000;
  }
  const file = dataPaths(dataDir).kbDb(manifest.kbId);
  const db = openDatabase(file, kbMigrations, 'the search benchmark index', { vectors: true });
  return { db, modelId, chunks, pages: manifest.pages, buildSeconds, file };
}
