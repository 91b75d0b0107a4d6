/**
 * Chinese questions are searched by their terms, not their question words (issue #25 item 2): 是, 什么,
 * 意思 and the bigrams made with them (是什, 么意) weigh nothing when the question has a term, as English
 * function words do, so a page that says 什么 and 意思 a lot does not outrank the one about the term.
 */
import { describe, expect, it } from 'vitest';
import { chineseFunctionTerms } from './keyword-terms';
import { keywordKbForTests } from './testing/test-kb';

const FILES = {
  'rrf.md': '# 倒数排名融合\n\nRRF（Reciprocal Rank Fusion）把关键词检索和向量检索的排名合并：每个结果得分 1/(k + 排名)，k 取 60。',
  'cypher-faq.md': '# 什么是 Cypher？\n\nCypher 是什么？它是图数据库的查询语言。这个名字是什么意思？意思是“密码”，什么都能查。',
  'words.md': '# 常见问题\n\n什么是什么？这是什么意思？那是什么意思？意思就是意思，是不是？',
  'kafka.md': '# Kafka 消费延迟\n\n消费者组的延迟是什么原因？通常是分区太少。',
};

const kb = keywordKbForTests('zh-questions', FILES);

describe('Chinese question words', () => {
  it.each(['RRF 是什么意思？', '什么是 RRF', 'RRF是什么', '请问 RRF 怎么算？'])('%s finds the page about RRF first', async (query) => {
    const result = await kb.keyword(query);
    expect(result.passages[0]?.pagePath).toBe('wiki/rrf.md');
    expect(result.passages[0]?.text).toContain('RRF');
  });

  it('a question of only question words still searches them', async () => {
    const result = await kb.keyword('是什么意思');
    expect(result.passages.length).toBeGreaterThan(0);
  });

  it.each([
    ['RRF 是什么意思？', ['是', '什么', '意思', '是什', '么意']],
    ['Kafka 消费延迟是什么原因', ['是', '什么', '迟是', '是什', '么原']],
    // 会 and 时 may be halves of unknown words (超|时 is how the segmenter splits 超时): alone only.
    ['超时之后会重试几次？', ['会', '时', '几次', '试几']],
    ['哪些配置需要重启', ['哪些', '需要', '些配', '置需', '要重']],
  ])('%s: function words and the bigrams made with them', (query, weak) => {
    expect([...chineseFunctionTerms(query)].sort()).toEqual([...weak].sort());
  });
});
