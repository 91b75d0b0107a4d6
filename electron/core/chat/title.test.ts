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
    ['an @-mention before the question is not part of the title', '[[wiki/notes/网关.md]] 里说的阈值是多少？', '里说的阈值是多少？'],
    ['nor one in the middle', 'How do I deploy [[wiki/部署指南.md]] on Linux?', 'How do I deploy on Linux?'],
    ['only references: their page names', '[[wiki/notes/部署指南.md]] [[wiki/gateway.md]]', '部署指南 gateway'],
    ['a reference and punctuation only: the page name', '[[wiki/notes/部署指南.md]]？', '部署指南？'],
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

  it('leaves the page to the question text of exports, where a reference reads as its page name', () => {
    const question = '[[wiki/notes/gateway.md]] 里说的阈值是多少？';
    expect(conversationTitle(question)).toBe('里说的阈值是多少？');
    expect(questionText(question)).toBe('gateway 里说的阈值是多少？');
  });
});

describe('a conversation named by its first question', () => {
  it('is titled from the whole question, without its @-mention', async () => {
    const dataDir = tempDir();
    const sift = createSift({ dataDir });
    const kb = await sift.invoke('kb.create', { name: 'Ops' });
    const created = kb.ok ? await sift.invoke('conversations.create', { kb: (kb.value as { id: string }).id }) : null;
    await sift.close();
    if (!created?.ok) throw new Error('could not create the conversation');
    const conversation = created.value as Conversation;
    const db = openDatabase(path.join(dataDir, 'sift.sqlite'), appMigrations, 'the app database');
    try {
      addMessage(db, conversation.id, 'user', '网关 [[wiki/notes/网关.md]] 的阈值是多少？', null);
      addMessage(db, conversation.id, 'user', 'A second question does not rename it', null);
      expect(listConversations(db, conversation.kbId).map((c) => c.title)).toEqual(['网关 的阈值是多少？']);
    } finally {
      db.close();
    }
  });
});
