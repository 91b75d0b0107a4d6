/**
 * The answer Sift gives without a language model: the top passages themselves, each cited, and
 * one clear sentence on why and how to start a model. Search still works without Ollama.
 */
import type { Passage } from '../../../shared/models';

/**
 * The extractive answer text for `passages` (numbered from 1), in the question's language.
 * `noExactMatch`: identifiers of the question found nowhere in the knowledge base (default none),
 * said before the passages so part-matches are not read as answers about them.
 */
export function extractiveAnswer(
  question: string,
  passages: Passage[],
  why: string,
  noExactMatch: string[] = [],
): string {
  const zh = /\p{Script=Han}/u.test(question);
  const missing = noExactMatch.length > 0 ? `${noExactMatchLine(noExactMatch, zh)}\n\n` : '';
  const howTo = zh
    ? `没有正在运行的语言模型（${why}），以下是知识库中最相关的段落原文。要得到生成的回答，请启动 Ollama（\`ollama serve\`）并下载一个模型（\`ollama pull qwen3:4b\`）。`
    : `No language model is running (${why}), so here are the most relevant passages from your knowledge base, quoted as they are. For written answers, start Ollama (\`ollama serve\`) and pull a model (\`ollama pull qwen3:4b\`).`;
  if (passages.length === 0) {
    return `${howTo}\n\n${missing}${zh ? '知识库中没有找到与这个问题相关的内容。' : 'Nothing in this knowledge base matches the question.'}`;
  }
  const items = passages.map((p, i) => `${i + 1}. **${p.title}** — ${oneParagraph(p.text)} [${i + 1}]`);
  return `${howTo}\n\n${missing}${items.join('\n')}`;
}

/** The sentence saying these identifiers occur nowhere in the knowledge base. */
function noExactMatchLine(words: string[], zh: boolean): string {
  const list = words.map((w) => `\`${w}\``).join(zh ? '、' : ', ');
  if (zh) return `知识库中没有 ${list} 的完全匹配；以下段落只匹配其中的部分或其他词语，` + '并不是关于它的内容。';
  return `There is no exact match for ${list} in this knowledge base; ` +
    'the passages below match only parts of it or other words, and are not about it.';
}

function oneParagraph(text: string, max = 400): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
