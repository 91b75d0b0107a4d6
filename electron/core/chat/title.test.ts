import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../shared/chat-models';
import { createSift } from '../sift';
import { appMigrations } from '../store/migrations/app';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { addMessage, listConversations } from './conversations';
import { conversationTitle, questionText } from './title';

describe('conversationTitle', () => {
  const cases: [string, string, string][] = [
    ['a short question is kept whole', 'How do I deploy?', 'How do I deploy?'],
    ['a question starting with a reference keeps its subject', '[[wiki/notes/网关.md]]里说的阈值是多少？', '网关里说的阈值是多少？'],
    ['a reference in the middle becomes the page name', 'Compare [[wiki/notes/gateway.md]] with [[wiki/部署指南.md]]', 'Compare gateway with 部署指南'],
    ['only a reference', '[[wiki/notes/部署指南.md]]', '部署指南'],
    ['whitespace and new lines fold', '  first line\n\n second   line ', 'first line second line'],
    ['nothing but space', '   ', 'New conversation'],
    [
      'a long English question is cut at a word boundary',
      'What does the gateway do when an upstream service keeps timing out for longer than thirty seconds?',
      'What does the gateway do when an upstream service keeps…',
    ],
    [
      'a long Chinese question is cut at a word or character boundary from its start',
      '请详细说明网关在上游服务连续超时超过三十秒的情况下会如何处理重试、熔断以及日志记录，并且说明配置文件里说的阈值是多少，以及默认值从哪里来？',
      '请详细说明网关在上游服务连续超时超过三十秒的情况下会如何处理重试、熔断以及日志记录，并且说明配置文件里说的阈值是多少…',
    ],
    ['one very long word is cut by characters', `see ${'x'.repeat(100)}`, `see ${'x'.repeat(55)}…`],
    ['an emoji is never split', `${'好'.repeat(58)}🙂🙂🙂`, `${'好'.repeat(58)}🙂…`],
  ];
  it.each(cases)('%s', (_name, question, title) => {
    const made = conversationTitle(question);
    expect(made).toBe(title);
    expect([...made].length).toBeLessThanOrEqual(60);
  });

  it('starts with the start of the question, never a tail fragment', () => {
    const question = '[[wiki/notes/gateway.md]] 里说的阈值是多少？';
    expect(conversationTitle(question).startsWith('gateway')).toBe(true);
    expect(questionText(question)).toBe('gateway 里说的阈值是多少？');
  });
});

describe('a conversation named by its first question', () => {
  it('is titled from the whole question, its leading reference as the page name', async () => {
    const dataDir = tempDir();
    const sift = createSift({ dataDir });
    const kb = await sift.invoke('kb.create', { name: 'Ops' });
    const created = kb.ok ? await sift.invoke('conversations.create', { kb: (kb.value as { id: string }).id }) : null;
    await sift.close();
    if (!created?.ok) throw new Error('could not create the conversation');
    const conversation = created.value as Conversation;
    const db = openDatabase(path.join(dataDir, 'sift.sqlite'), appMigrations, 'the app database');
    try {
      addMessage(db, conversation.id, 'user', '[[wiki/notes/网关.md]]里说的阈值是多少？', null);
      addMessage(db, conversation.id, 'user', 'A second question does not rename it', null);
      expect(listConversations(db, conversation.kbId).map((c) => c.title)).toEqual(['网关里说的阈值是多少？']);
    } finally {
      db.close();
    }
  });
});
