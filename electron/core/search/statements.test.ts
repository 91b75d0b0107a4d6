/**
 * A search runs a fixed number of SQL statements whatever its query: every stage reads all its terms
 * at once (issue #24). The figures are the core's own (`timings.statements`), counted on the
 * knowledge base's connection by store/statements.ts, through the real pipeline with the test model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../shared/models';
import { makeKb, search, startCore, valueOf, type TestCore } from './testing/test-kb';

const topics = ['connection pool', 'retry budget', 'gateway timeout', '超时重试', '连接池', 'E_CONN_RESET', 'v1/chat', 'api-gateway'];
const files: Record<string, string> = {};
for (let n = 0; n < 40; n++) {
  const topic = topics[n % topics.length]!;
  files[`notes/note-${n}.md`] = `# ${topic} ${n}\n\n${topic} notes ${n}: the ${topic} settles after ${n} tries.\n\n## More\n\nSee ${topics[(n + 3) % topics.length]} too; 第${n}条记录。\n`;
}
// Versions of one document, so the versions feature takes part in every ranking.
files['hr/policy_v1.md'] = '# Travel policy\n\nHotels up to 500 a night, connection pool of taxis.';
files['hr/policy_v2.md'] = '# Travel policy\n\nHotels up to 700 a night, connection pool of taxis.';

let core: TestCore;
let kb: string;
beforeAll(async () => {
  core = await startCore('test');
  kb = (await makeKb(core, 'statements', { docs: files })).id;
}, 60_000);
afterAll(async () => core?.close());

async function statements(query: string, mode = 'hybrid'): Promise<SearchResult['timings']['statements']> {
  const result = valueOf<SearchResult>(await search(core, { kb, query, topK: 10, mode }));
  expect(result.mode).toBe(mode);
  expect(result.passages.length).toBeGreaterThan(0);
  return result.timings.statements;
}

const LONG = [
  'connection pool retry budget gateway timeout settles tries notes more travel policy hotels night taxis',
  '超时重试 连接池 记录 第三条 E_CONN_RESET v1/chat api-gateway E_TIMEOUT hotel-booking policy_v2 see too after',
].join(' ');

describe('statements per search', () => {
  it('stay the same for a 30-term query as for a 3-term one, in both stages and after', async () => {
    const short = await statements('connection pool timeout');
    const long = await statements(LONG);
    for (const s of [short, long]) {
      expect(s.keyword).toBeGreaterThan(0);
      expect(s.vector).toBeGreaterThan(0);
      expect(s.total).toBe(s.keyword + s.vector + s.other);
    }
    expect(long.total).toBeLessThanOrEqual(30);
    // The long query names identifiers the knowledge base lacks: their parts choose in an expression of
    // their own (weighed less) and split the whole terms' expression, in each of the two keyword stages.
    expect(long.keyword).toBeLessThanOrEqual(short.keyword + 4);
    expect(long.other).toBeLessThanOrEqual(short.other + 2);
    expect(long.vector).toBe(short.vector);
  });

  it('are counted in keyword mode too, with no vector statements', async () => {
    const s = await statements(LONG, 'keyword');
    expect(s.vector).toBe(0);
    expect(s.keyword).toBeLessThanOrEqual(15);
  });
});
