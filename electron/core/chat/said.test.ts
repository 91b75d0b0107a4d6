/**
 * Core messages cross the contract with their code and parameters (issue #27, item 6): a stored turn's warnings, a
 * tool's summary, a failed answer, the model status and a file's reason each come with a `said` entry for their
 * English text, which stays as it always was (the CLI, MCP and logs show it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestStatus } from '../../../shared/models';
import type { LlmStatus } from '../../../shared/chat-models';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

describe('core messages with codes', () => {
  it('a turn at its length limit after a tool call: the warning and the summary carry their codes', async () => {
    bench = await startChatBench();
    bench.server.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: { query: 'retry policy' } }] }] });
    bench.server.onChat({ chunks: [{ content: 'It retries three times [1].' }], doneReason: 'length' });
    const out = await bench.ask('How does the client retry?');
    const turn = out.message!.turn!;
    const warning = 'The model stopped at its answer-length limit (num_predict 8192 tokens).';
    expect(turn.warnings).toEqual([warning]);
    expect(turn.said![warning]).toEqual({ code: 'turn.modelLength', params: { tokens: '8192' } });
    const tool = out.events.find((e) => e.event === 'tool.result')!.payload;
    expect(tool.said).toEqual({ [tool.summary as string]: { code: 'tool.passages', params: { count: expect.any(String) } } });
  });

  it('a follow-up with no model to rewrite it, the model status and a failed file say their codes', async () => {
    bench = await startChatBench({ ollamaDown: true, docs: { 'a.md': '# Retry\n\nThe client retries three times.\n' } });
    const first = await bench.ask('How does the client retry?');
    const out = await bench.ask('And how long does it wait?', { conversationId: first.conversationId });
    const turn = out.message!.turn!;
    const note = turn.warnings!.find((w) => w.startsWith('The follow-up was not rewritten'))!;
    expect(turn.said![note]).toMatchObject({ code: 'rewrite.fallback', params: { why: { code: 'rewrite.noModel' } } });

    const status = (await bench.sift.invoke('llm.status', {})) as { ok: true; value: LlmStatus };
    expect(status.value.said![status.value.message!]).toEqual({ code: 'status.ollamaDown', params: { host: 'http://127.0.0.1:9' } });

    const folder = fs.mkdtempSync(path.join(path.dirname(bench.dataDir), 'sift-said-'));
    fs.writeFileSync(path.join(folder, 'broken.pdf'), '%PDF-1.4\nthis is not a PDF body\n');
    await bench.sift.invoke('folder.add', { kb: bench.kbId, path: folder });
    await bench.sift.ingest(bench.kbId);
    const ingest = (await bench.sift.invoke('ingest.status', { kb: bench.kbId })) as { ok: true; value: IngestStatus };
    const failed = ingest.value.problems.find((p) => p.relPath === 'broken.pdf')!;
    expect(failed.reason).toMatch(/^the PDF could not be read: /);
    expect(ingest.value.said![failed.reason]).toMatchObject({ code: 'file.pdfUnreadable' });
  });
});
