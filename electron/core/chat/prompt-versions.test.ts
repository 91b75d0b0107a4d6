/**
 * The model's context marks each passage's version (issue #15 item 4): current, superseded (with the
 * page that replaces it), expired, undated; and a note asks it to answer from the current version.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Passage } from '../../../shared/models';
import { VERSION_DOCS } from '../search/testing/version-docs';
import { formatPassage, OLD_VERSIONS_NOTE, userMessageWithContext, versionNote } from './prompt';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

const passage = (version?: Passage['version']): Passage => ({
  evidenceId: 'e', pagePath: 'wiki/policy_v1.md', title: 'Policy', start: 0, end: 4, text: 'Text', contentHash: 'h',
  provenance: { headingPath: [], pdfPages: null, lines: null }, hitReason: 'body',
  keywordRank: 1, keywordScore: 1, vectorRank: null, vectorDistance: null, rrfScore: 0.1, version,
});

describe('versionNote', () => {
  it.each<[NonNullable<Passage['version']>, string]>([
    [{ status: 'current', label: 'v2', effective: '2024-01-01', expires: null, supersededBy: null }, 'current version v2 (effective 2024-01-01)'],
    [{ status: 'superseded', label: '(2023版)', effective: null, expires: null, supersededBy: 'wiki/b.md' }, 'SUPERSEDED version (2023版), replaced by wiki/b.md'],
    [{ status: 'expired', label: 'v1', effective: '2023-01-01', expires: '2023-12-31', supersededBy: null }, 'EXPIRED version v1 (effective 2023-01-01, expires 2023-12-31)'],
    [{ status: 'undated', label: null, effective: null, expires: null, supersededBy: null }, 'undated (other versions of this document exist)'],
  ])('%j', (version, note) => {
    expect(versionNote(version)).toBe(note);
  });
});

describe('userMessageWithContext', () => {
  it('marks each passage with its version, and adds the note only when an old version is among them', () => {
    const old = passage({ status: 'superseded', label: 'v1', effective: null, expires: null, supersededBy: 'wiki/policy_v2.md' });
    const message = userMessageWithContext('q', [old, passage()], 1000);
    expect(message).toBe(
      '<knowledge_base_passages>\n' +
        '[1] (wiki/policy_v1.md · Policy · SUPERSEDED version v1, replaced by wiki/policy_v2.md)\nText\n\n' +
        '[2] (wiki/policy_v1.md · Policy)\nText\n' +
        `</knowledge_base_passages>\n\n${OLD_VERSIONS_NOTE}\n\nQuestion: q`,
    );
    const current = passage({ status: 'current', label: 'v2', effective: null, expires: null, supersededBy: null });
    expect(userMessageWithContext('q', [current], 1000)).not.toContain(OLD_VERSIONS_NOTE);
    expect(formatPassage(current, 1)).toBe('[1] (wiki/policy_v1.md · Policy · current version v2)\nText');
  });
});

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

describe('a chat turn over two versions of a policy', () => {
  it('sends the current version first, each passage marked, the old one as superseded', async () => {
    bench = await startChatBench({ docs: VERSION_DOCS });
    bench.ollama.onChat({ chunks: [{ content: '每晚最高 500 元 [1]。' }] });
    await bench.ask('出差住宿费每晚最高报销多少？');
    const sent = bench.ollama.requests.find((r) => r.path === '/api/chat')!.body as { messages: { content: string }[] };
    const user = sent.messages.at(-1)!.content;
    const marks = [...user.matchAll(/^\[(\d+)\] \((wiki\/差旅[^ ]+) · .* · ([^·]+)\)$/gmu)].map((m) => [m[2], m[3]]);
    expect(user).toMatch(/^<knowledge_base_passages>\n\[1\] \(wiki\/差旅报销政策（2024版）\.md/);
    // Each version's passages (lodging, transport) carry the same mark.
    expect(Object.fromEntries(marks)).toEqual({
      'wiki/差旅报销政策（2024版）.md': 'current version (2024版)',
      'wiki/差旅报销政策（2023版）.md': 'SUPERSEDED version (2023版), replaced by wiki/差旅报销政策（2024版）.md',
    });
    expect(marks.length).toBeGreaterThanOrEqual(2);
    expect(user).toContain(OLD_VERSIONS_NOTE);
  });
});
