/**
 * Core messages in the UI's language: every code of shared/said.ts has Chinese words with the same parameters, and a
 * message with a reason in English from elsewhere is said without it.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { MESSAGES, say, saidMapOf, saidOf } from '../../../shared/said';
import { coreEn } from '../i18n/core-en';
import { coreZhCN } from '../i18n/core-zh-CN';
import { spoken } from './spoken';

const names = (text: string) => [...text.matchAll(/\{\{?(\w+)\}?\}/g)].map((m) => m[1]!).sort();

async function tIn(language: string) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: language, resources: { en: { core: coreEn }, 'zh-CN': { core: coreZhCN } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

describe('core messages', () => {
  it.each(Object.entries(MESSAGES))('%s has Chinese words with the same parameters', (code, template) => {
    const zh = coreZhCN[code as keyof typeof coreZhCN]!;
    expect(zh).toBeTypeOf('string');
    expect([...new Set(names(zh))]).toEqual([...new Set(names(template))]);
    const raw = coreZhCN[`${code}_raw`];
    if (raw) expect(names(raw)).not.toContain('detail');
  });

  it('has no Chinese words for a code that does not exist', () => {
    const codes = new Set(Object.keys(MESSAGES));
    const extra = Object.keys(coreZhCN).filter((k) => !codes.has(k.replace(/_raw$/, '')) && k !== 'list.separator');
    expect(extra).toEqual([]);
  });

  it('recognises its own texts again, with the messages said inside them', () => {
    const inner = say('llm.unreachable', { name: 'Ollama', host: 'http://127.0.0.1:9' });
    const note = say('rewrite.fallback', { why: say('rewrite.noModel', { detail: inner }) });
    expect(saidOf(note.text)).toEqual(note.said);
    expect(saidOf('the PDF could not be read: Invalid PDF structure')).toEqual({
      code: 'file.pdfUnreadable', params: { detail: { code: 'pdf.invalidBare' } },
    });
    expect(saidOf('something else entirely')).toBeNull();
  });

  it('says them in Chinese, a foreign reason left out, and in English as the core wrote them', async () => {
    const zh = await tIn('zh-CN');
    const en = await tIn('en');
    const pdf = 'the PDF could not be read: Invalid PDF structure';
    const odd = 'the PDF could not be read: bad XRef entry at 0x1f';
    const map = saidMapOf([pdf, odd, 'Not a core message']);
    expect(spoken(zh, pdf, map)).toBe('无法读取此 PDF：文件结构无效');
    expect(spoken(zh, odd, map)).toBe('无法读取此 PDF（文件可能已损坏）');
    expect(spoken(zh, 'Not a core message', map)).toBe('Not a core message');
    expect(spoken(en, odd, map)).toBe(odd);
    const note = say('rewrite.fallback', { why: say('rewrite.noModel', { detail: say('llm.unreachable', { name: 'Ollama', host: 'h' }) }) });
    expect(spoken(zh, note.text, saidMapOf([note.text]))).toBe('追问没有经模型改写（没有可用的模型：无法连接 Ollama（h））；已加上上一个问题的关键词再搜索。');
    expect(spoken(en, note.text, saidMapOf([note.text]))).toBe(note.text);
    const off = 'multi-query, HyDE, LLM rerank: off, no model (Ollama is not reachable at http://127.0.0.1:9)';
    expect(spoken(zh, off, saidMapOf([off]))).toBe('多查询、HyDE、LLM 重排：已关闭，没有模型（无法连接 Ollama（http://127.0.0.1:9））');
    const down = say('status.ollamaDown', { host: 'http://h' }).text;
    expect(saidOf(down)).toEqual({ code: 'status.ollamaDown', params: { host: 'http://h' } });
  });
});
