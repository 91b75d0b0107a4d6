/**
 * The vector stage on a real knowledge-base file: the in-memory index holds what is stored, its
 * passes (centred sign bits → int8 → exact) find what exact search finds, it stays correct while
 * vectors change (never a deleted chunk, never a missed new one), and it honours scope.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDocument, writePage, type PreparedPage } from '../ingest/page-store';
import { useModel, writeVectors } from '../store/vectors';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { statementsRun } from '../store/statements';
import { tempDir } from '../testing/temp';
import { VectorIndexBuilder } from './index-builder';
import { bestByCodes, currentVectorIndex, forgetVectorIndex, loadVectorIndex, nearestByBits, toFloats, vectorIndexBuilding, type VectorIndex } from './vector-index';
import { exactVectorSearch, vectorSearch, vectorsOf } from './vector';
import { random } from './testing/random';

const DIM = 384;

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

/** Vectors around `centres` topics, as an embedding model would cluster them. */
function clustered(rng: () => number, centres: Float32Array[], topic: number): Float32Array {
  const c = centres[topic % centres.length]!;
  return unit(Float32Array.from(c, (x) => x + (rng() - 0.5) * 0.12));
}

const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) {
    forgetVectorIndex(db);
    db.close();
  }
});

function page(n: number, chunks: number): PreparedPage {
  const text = Array.from({ length: chunks }, (_, i) => `chunk ${i} of page ${n}.`.padEnd(40, '.')).join('\n');
  return {
    folder: '/notes', relPath: `p${n}.md`, size: text.length, mtimeMs: 1, sha256: `sha-${n}`, path: `wiki/p${n}.md`, title: `p${n}`,
    doc: { kind: 'text', text, title: null, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' } as unknown as PreparedPage['doc'],
    titleTokens: `p${n}`, pathTokens: `p${n} md`,
    sections: [{ index: 0, start: 0, end: text.length, headingPath: [] }],
    chunks: Array.from({ length: chunks }, (_, i) => ({ index: i, sectionIndex: 0, start: i * 41, end: i * 41 + 40, hash: `h${n}-${i}`, tokens: `chunk ${i} page ${n}` })),
  };
}

/** A knowledge base of `pages` × `perPage` chunks with clustered vectors; returns the chunk ids by page. */
function makeKb(pages: number, perPage: number, seed = 1): { db: Database.Database; centres: Float32Array[]; rng: () => number; byPage: Map<number, number[]> } {
  const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
  dbs.push(db);
  const rng = random(seed);
  const centres = Array.from({ length: 20 }, () => unit(Float32Array.from({ length: DIM }, () => rng() - 0.5)));
  useModel(db, { id: 'test', dimension: DIM });
  db.transaction(() => {
    for (let n = 0; n < pages; n++) writePage(db, page(n, perPage));
  })();
  const rows = db.prepare(`SELECT c.id, c.hash, c.page_id AS pageId FROM chunks c ORDER BY c.id`).all() as { id: number; hash: string; pageId: number }[];
  writeVectors(db, rows.map((r, i) => ({ chunkId: r.id, hash: r.hash, vector: clustered(rng, centres, i) })));
  const byPage = new Map<number, number[]>();
  for (const r of rows) byPage.set(r.pageId, [...(byPage.get(r.pageId) ?? []), r.id]);
  return { db, centres, rng, byPage };
}

/** An index over hand-made 4-dimensional vectors (mean zero unless given). */
function tiny(vectors: number[][], mean = [0, 0, 0, 0]): VectorIndex {
  const m = Float32Array.from(mean);
  const bits = Uint32Array.from(vectors, (v) => v.reduce((word, x, i) => (x > m[i]! ? word | (1 << i) : word), 0));
  return {
    dimension: 4, ids: Int32Array.from(vectors, (_, i) => 100 + i), mean: m, bits, words: 1,
    codes: Int8Array.from(vectors.flat(), (x) => Math.round(x * 100)), scales: new Float32Array(vectors.length).fill(0.01),
  };
}

describe('nearestByBits', () => {
  // Hamming distances to the query (+,+,-,-): 100 → 1, 101 → 0, 102 → 4, 103 → 1
  const index = tiny([[0.5, 0.5, 0.1, -0.5], [0.5, 0.5, -0.5, -0.5], [-0.5, -0.5, 0.5, 0.5], [0.5, -0.1, -0.5, -0.5]]);
  const query = Float32Array.from([0.6, 0.6, -0.4, -0.4]);

  it.each([
    { k: 1, want: [1], why: 'the nearest' },
    { k: 3, want: [1, 0, 3], why: 'nearest first; among equals the earlier entry' },
    { k: 10, want: [1, 0, 3, 2], why: 'k beyond the size gives everything' },
    { k: 0, want: [], why: 'k = 0 gives nothing' },
  ])('k = $k: $why', ({ k, want }) => {
    expect(nearestByBits(index, query, k)).toEqual(want);
  });

  it('takes only the allowed chunk ids, still nearest first', () => {
    expect(nearestByBits(index, query, 2, new Set([100, 102]))).toEqual([0, 2]);
    expect(nearestByBits(index, query, 5, new Set([999]))).toEqual([]);
  });

  it('takes the bits of the vector minus the mean', () => {
    // Every component above zero, but against this mean entry 101 matches the query's pattern.
    const centred = tiny([[0.9, 0.1, 0.9, 0.1], [0.1, 0.9, 0.1, 0.9]], [0.5, 0.5, 0.5, 0.5]);
    expect(nearestByBits(centred, Float32Array.from([0.2, 0.8, 0.2, 0.8]), 1)).toEqual([1]);
  });
});

describe('bestByCodes', () => {
  it('ranks entries by their int8 dot product with the query, best first, ties by chunk id', () => {
    const index = tiny([[0.1, 0, 0, 0], [0.9, 0, 0, 0], [0.5, 0.5, 0, 0], [0.9, 0, 0, 0]]);
    expect(bestByCodes(index, Float32Array.from([1, 0, 0, 0]), [0, 1, 2, 3], 3)).toEqual([101, 103, 102]);
    expect(bestByCodes(index, Float32Array.from([0, 1, 0, 0]), [0, 1, 2], 1)).toEqual([102]);
  });
});

describe('the in-memory vector index of a knowledge base', () => {
  it('holds every stored vector: int8 codes within half a step of the floats, the mean of them all', () => {
    const { db } = makeKb(30, 10);
    const index = loadVectorIndex(db, DIM);
    expect(index.ids.length).toBe(300);
    const stored = new Map((db.prepare(`SELECT chunk_id, vector FROM chunk_vectors`).raw().all() as [number, Buffer][]).map(([id, b]) => [id, new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))]));
    expect(new Set(index.ids)).toEqual(new Set(stored.keys()));
    const mean = new Float32Array(DIM);
    index.ids.forEach((id, e) => {
      const v = stored.get(id)!;
      for (let i = 0; i < DIM; i++) {
        expect(Math.abs(index.codes[e * DIM + i]! * index.scales[e]! - v[i]!)).toBeLessThanOrEqual(index.scales[e]! / 2 + 1e-7);
        mean[i]! += v[i]! / 300;
      }
    });
    for (let i = 0; i < DIM; i++) expect(index.mean[i]).toBeCloseTo(mean[i]!, 5);
  });

  it('finds what exact search finds (recall@10 over 20 queries ≥ 0.9 with 60 bit-pass candidates of 600)', () => {
    const { db, centres, rng } = makeKb(60, 10);
    let found = 0;
    for (let t = 0; t < 20; t++) {
      const query = clustered(rng, centres, t);
      const exact = new Set(exactVectorSearch(db, query, 10, null).map((h) => h.chunkId));
      const viaBits = vectorSearch(db, query, 10, null, { exactBelow: 0, rankAllBelow: 0, candidates: 60, settleMs: 0 });
      found += viaBits.filter((h) => exact.has(h.chunkId)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('ranking every int8 code (a small collection) gives the exact top 10', () => {
    const { db, centres, rng } = makeKb(60, 10, 7);
    for (let t = 0; t < 10; t++) {
      const query = clustered(rng, centres, t);
      const exact = exactVectorSearch(db, query, 10, null).map((h) => h.chunkId);
      expect(vectorSearch(db, query, 10, null, { exactBelow: 0, settleMs: 0 }).map((h) => h.chunkId)).toEqual(exact);
    }
  });

  it('never returns a removed chunk and finds a new one at once, before and after the index is rebuilt', () => {
    const { db, centres, rng, byPage } = makeKb(30, 10);
    const query = clustered(rng, centres, 3);
    const options = { exactBelow: 0, rankAllBelow: 0, candidates: 100, settleMs: 60_000 };
    const first = vectorSearch(db, query, 5, null, options); // builds the index
    const goneChunk = first[0]!.chunkId;
    const gonePage = [...byPage].find(([, ids]) => ids.includes(goneChunk))![0];
    const documentId = db.prepare(`SELECT document_id FROM pages WHERE id = ?`).pluck().get(gonePage) as number;
    removeDocument(db, documentId);
    writePage(db, page(999, 1));
    const fresh = db.prepare(`SELECT id, hash FROM chunks WHERE hash = 'h999-0'`).get() as { id: number; hash: string };
    writeVectors(db, [{ chunkId: fresh.id, hash: fresh.hash, vector: query }]);

    // Stale index, writes not settled: sqlite-vec's KNN answers.
    const during = vectorSearch(db, query, 5, null, options).map((h) => h.chunkId);
    expect(during[0]).toBe(fresh.id);
    expect(during).not.toContain(goneChunk);
    // Settled (settleMs 0): the index is rebuilt and agrees.
    const after = vectorSearch(db, query, 5, null, { ...options, settleMs: 0 }).map((h) => h.chunkId);
    const exact = exactVectorSearch(db, query, 5, null).map((h) => h.chunkId);
    expect(during).toEqual(exact);
    expect(after).toEqual(exact);
    expect(loadVectorIndex(db, DIM).ids).toContain(fresh.id);
  });

  it('builds the index in a worker while sqlite-vec answers, then uses it', async () => {
    const { db, centres, rng } = makeKb(30, 10);
    const builder = new VectorIndexBuilder();
    try {
      const query = clustered(rng, centres, 2);
      const exact = exactVectorSearch(db, query, 5, null).map((h) => h.chunkId);
      const options = { exactBelow: 0, rankAllBelow: 0, candidates: 200, settleMs: 0, buildIndex: builder.build };
      expect(vectorSearch(db, query, 5, null, options).map((h) => h.chunkId)).toEqual(exact); // sqlite-vec KNN
      const building = vectorIndexBuilding(db);
      expect(building).not.toBeNull();
      await building;
      const built = currentVectorIndex(db, DIM, 0, () => Promise.reject(new Error('must not build again')));
      expect(built?.ids.length).toBe(300);
      expect(built!.codes).toEqual(loadVectorIndex(db, DIM).codes);
      expect(vectorSearch(db, query, 5, null, options).map((h) => h.chunkId)).toEqual(exact);
      expect(vectorIndexBuilding(db)).toBeNull();
    } finally {
      await builder.close();
    }
  });

  it('ranks only chunks in scope, on the bit pass as on exact search', () => {
    const { db, centres, rng, byPage } = makeKb(40, 10);
    const scope = [...byPage.keys()].filter((id) => id % 3 === 0);
    const inScope = new Set(scope.flatMap((id) => byPage.get(id)!));
    for (let t = 0; t < 5; t++) {
      const query = clustered(rng, centres, t);
      const viaBits = vectorSearch(db, query, 10, scope, { exactBelow: 0, rankAllBelow: 0, candidates: 30, settleMs: 0 });
      const exact = exactVectorSearch(db, query, 10, scope);
      expect(viaBits.length).toBe(10);
      for (const h of viaBits) expect(inScope.has(h.chunkId)).toBe(true);
      expect(viaBits.filter((h) => exact.some((e) => e.chunkId === h.chunkId)).length).toBeGreaterThanOrEqual(8);
    }
  });

  it('gives MMR the vectors the rescoring just read, and the stored ones once a vector has changed', () => {
    const { db, centres, rng } = makeKb(60, 10, 3);
    const query = clustered(rng, centres, 2);
    const ids = vectorSearch(db, query, 10, null, { exactBelow: 0, settleMs: 0 }).map((h) => h.chunkId);
    const stored = (id: number) => toFloats(db.prepare(`SELECT vector FROM chunk_vectors WHERE chunk_id = ?`).pluck().get(id) as Buffer);
    const before = statementsRun(db);
    const vectors = vectorsOf(db, ids);
    expect(statementsRun(db) - before).toBe(1); // the state check; no vector is read again
    expect([...vectors.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    for (const id of ids) expect([...vectors.get(id)!]).toEqual([...stored(id)]);
    // a chunk the rescoring did not read comes from the table
    const other = (db.prepare(`SELECT max(chunk_id) FROM chunk_vectors`).pluck().get() as number);
    expect(ids).not.toContain(other);
    const otherStored = [...stored(other)];
    const mixed = statementsRun(db);
    const both = vectorsOf(db, [ids[0]!, other]);
    expect(statementsRun(db) - mixed).toBe(2); // the state check, then a read of the one it lacks
    expect([...both.get(other)!]).toEqual(otherStored);
    // a vector written since (here by hand, as a re-embedding would) is read anew
    const changed = clustered(rng, centres, 9);
    db.prepare(`UPDATE chunk_vectors SET vector = ? WHERE chunk_id = ?`).run(Buffer.from(changed.buffer), ids[0]);
    expect([...vectorsOf(db, [ids[0]!]).get(ids[0]!)!]).toEqual([...changed]);
  });
});
