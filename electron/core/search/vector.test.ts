/**
 * The vector stage on a real knowledge-base file: the in-memory sign-bit pass agrees with
 * sqlite-vec's own bit KNN, stays correct while vectors change (never a deleted chunk, never a
 * missed new one), honours scope, and finds what exact search finds.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDocument, writePage, type PreparedPage } from '../ingest/page-store';
import { useModel, writeVectors } from '../ingest/vectors';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { forgetSignBits, loadSignBits, nearestBySignBits, type SignBitIndex } from './sign-bits';
import { exactVectorSearch, vectorSearch } from './vector';

const DIM = 384;

/** A seeded stream of numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    forgetSignBits(db);
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

function quantize(db: Database.Database, v: Float32Array): Buffer {
  return db.prepare(`SELECT vec_quantize_binary(?)`).pluck().get(Buffer.from(v.buffer, v.byteOffset, v.byteLength)) as Buffer;
}

describe('nearestBySignBits', () => {
  const index = (rows: number[][]): SignBitIndex => ({ ids: Int32Array.from(rows, (_, i) => 100 + i), bits: Uint32Array.from(rows.flat()), words: 2 });
  const q = Buffer.from(new Uint32Array([0b1111, 0]).buffer);

  it.each([
    { k: 1, want: [101], why: 'the nearest' },
    { k: 3, want: [101, 100, 103], why: 'nearest first; among equals the earlier entry' },
    { k: 10, want: [101, 100, 103, 102], why: 'k beyond the size gives everything' },
    { k: 0, want: [], why: 'k = 0 gives nothing' },
  ])('k = $k: $why', ({ k, want }) => {
    // distances to q: 100 → 2, 101 → 0, 102 → 36, 103 → 2
    const idx = index([[0b0011, 0], [0b1111, 0], [0xffff0000, 0xfff00000 | 0], [0b1111_11, 0]]);
    expect(nearestBySignBits(idx, q, k)).toEqual(want);
  });

  it('reads a query whose length is not a whole number of words (72 bits)', () => {
    const idx: SignBitIndex = { ids: Int32Array.from([1, 2]), bits: Uint32Array.from([0, 0, 0xff, 0, 0, 0]), words: 3 };
    const query = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0xff]); // the 9th byte: bits 64–71
    expect(nearestBySignBits(idx, query, 2)).toEqual([1, 2]);
  });

  it('takes only the allowed chunk ids, still nearest first', () => {
    const idx = index([[0b0011, 0], [0b1111, 0], [0xffff0000, 0], [0b1111_11, 0]]);
    expect(nearestBySignBits(idx, q, 2, new Set([100, 102]))).toEqual([100, 102]);
    expect(nearestBySignBits(idx, q, 5, new Set([999]))).toEqual([]);
  });
});

describe('the sign-bit index of a knowledge base', () => {
  it('holds the bits sqlite-vec stored: its ranking has the same Hamming distances as sqlite-vec KNN', () => {
    const { db, centres, rng } = makeKb(30, 10);
    const index = loadSignBits(db, DIM);
    expect(index.ids.length).toBe(300);
    for (let t = 0; t < 5; t++) {
      const bits = quantize(db, clustered(rng, centres, t));
      const ours = nearestBySignBits(index, bits, 25);
      const theirs = db.prepare(`SELECT rowid, distance FROM vec_bits WHERE embedding MATCH vec_bit(?) AND k = 25`).all(bits) as { rowid: number; distance: number }[];
      const distanceOf = db.prepare(`SELECT vec_distance_hamming(embedding, vec_bit(?)) FROM vec_bits WHERE rowid = ?`).pluck();
      // Ties at the cut may pick different chunks; the distances at each rank must agree.
      expect(ours.map((id) => distanceOf.get(bits, id))).toEqual(theirs.map((r) => r.distance));
    }
  });

  it('finds what exact search finds (recall@10 over 20 queries ≥ 0.9 with 100 candidates of 600)', () => {
    const { db, centres, rng } = makeKb(60, 10);
    let found = 0;
    for (let t = 0; t < 20; t++) {
      const query = clustered(rng, centres, t);
      const exact = new Set(exactVectorSearch(db, query, 10, null).map((h) => h.chunkId));
      const viaBits = vectorSearch(db, query, 10, null, { exactBelow: 0, candidates: 100 });
      found += viaBits.filter((h) => exact.has(h.chunkId)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('never returns a removed chunk and finds a new one at once, before and after the index is rebuilt', () => {
    const { db, centres, rng, byPage } = makeKb(30, 10);
    const query = clustered(rng, centres, 3);
    const options = { exactBelow: 0, candidates: 200, settleMs: 60_000 };
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
    expect(loadSignBits(db, DIM).ids).toContain(fresh.id);
  });

  it('ranks only chunks in scope, on the bit pass as on exact search', () => {
    const { db, centres, rng, byPage } = makeKb(40, 10);
    const scope = [...byPage.keys()].filter((id) => id % 3 === 0);
    const inScope = new Set(scope.flatMap((id) => byPage.get(id)!));
    for (let t = 0; t < 5; t++) {
      const query = clustered(rng, centres, t);
      const viaBits = vectorSearch(db, query, 10, scope, { exactBelow: 0, candidates: 60, settleMs: 0 });
      const exact = exactVectorSearch(db, query, 10, scope);
      expect(viaBits.length).toBe(10);
      for (const h of viaBits) expect(inScope.has(h.chunkId)).toBe(true);
      expect(viaBits.filter((h) => exact.some((e) => e.chunkId === h.chunkId)).length).toBeGreaterThanOrEqual(8);
    }
  });
});
