import { describe, expect, it } from 'vitest';
import { kbQuestionOf } from './kb-questions';

describe('kbQuestionOf', () => {
  it.each([
    '总结一下这个库',
    '总结这个库',
    '这个知识库里都有什么？',
    '库里有什么',
    '介绍一下我的笔记',
    '这个库的主要内容是什么',
    "What's in here?",
    'what is in this knowledge base',
    'What is this folder about?',
    'Summarize the notes',
    'summarise this KB please',
    'Give me an overview of my documents',
    'overview',
  ])('%s is an overview question', (message) => {
    expect(kbQuestionOf(message)).toEqual({ kind: 'overview' });
  });

  it.each([
    ['哪些笔记提到了熔断？', '熔断'],
    ['哪些文档涉及 Redis 集群迁移', 'Redis 集群迁移'],
    ['哪几篇讲到网关超时', '网关超时'],
    ['E_CONN_RESET 在哪些文档里出现过？', 'E_CONN_RESET'],
    ['Which of my notes mention `E_CONN_RESET`?', 'E_CONN_RESET'],
    ['which documents talk about the retry policy?', 'retry policy'],
    ['Which files cover "api-gateway"?', 'api-gateway'],
    ['List all notes about kafka lag', 'kafka lag'],
    ['find the pages mentioning 熔断', '熔断'],
  ])('%s is a catalogue question about %s', (message, topic) => {
    expect(kbQuestionOf(message)).toEqual({ kind: 'catalogue', topic });
  });

  it.each([
    '网关超时之后会重试几次？',
    'How often does the client retry after E_CONN_RESET?',
    'What does the retry policy say?',
    '这个库怎么用',
    'which port does the gateway use?',
    'Summarize the retry policy',
    '总结一下重试策略',
  ])('%s is an ordinary question', (message) => {
    expect(kbQuestionOf(message)).toBeNull();
  });
});
