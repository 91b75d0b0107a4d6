/**
 * Questions about the knowledge base as a whole, which no single passage answers: an overview
 * ("what is in here?", 总结一下这个库) and a catalogue ("which of my notes mention X?", 哪些笔记提到了X).
 * Recognised by plain patterns in Chinese and English, so the route is the same with or without a model;
 * anything not recognised is an ordinary question, which costs nothing but the better route.
 */

/** What kind of whole-folder question a message is. */
export type KbQuestion = { kind: 'overview' } | { kind: 'catalogue'; topic: string };

// "Here" words: the knowledge base, this folder, my notes.
const ZH_PLACE = '(?:这个|整个|本|该|我的|这些)?(?:知识库|资料库|库|文件夹|目录|笔记|文档|资料)';
const EN_PLACE = '(?:this|the|my|these|our)\\s+(?:knowledge\\s*base|kb|folders?|library|notes|documents|docs|files|collection)';

const OVERVIEW: RegExp[] = [
  new RegExp(`(?:总结|概括|概述|归纳|介绍)(?:一下|下)?${ZH_PLACE}`, 'u'),
  new RegExp(`${ZH_PLACE}(?:里|中|里面)?(?:都|主要)?(?:有|是|讲|写|包含|涉及|记录)(?:了)?(?:些)?(?:什么|哪些内容|啥)`, 'u'),
  new RegExp(`${ZH_PLACE}(?:的)?(?:概览|概况|总览|概述|主要内容|大致内容)`, 'u'),
  new RegExp(`\\bwhat(?:'s|\\s+is|\\s+are)?\\s+(?:in|inside)\\s+(?:here|${EN_PLACE})\\b`, 'i'),
  new RegExp(`\\bwhat\\s+(?:is|are)\\s+${EN_PLACE}\\s+about\\b`, 'i'),
  new RegExp(`\\b(?:summari[sz]e|describe|outline)\\s+${EN_PLACE}\\b`, 'i'),
  new RegExp(`\\b(?:an?\\s+)?overview\\s+of\\s+${EN_PLACE}\\b`, 'i'),
  /^\s*(?:give\s+me\s+)?(?:an?\s+)?overview[\s.?!]*$/i,
];

const ZH_DOCS = '(?:笔记|文档|文件|页面|资料|文章|记录)';
const EN_DOCS = '(?:notes?|documents?|docs|files?|pages?|papers?|runbooks?)';
/** The catalogue patterns; the named group `topic` is what to search for. */
const CATALOGUE: RegExp[] = [
  new RegExp(`(?:哪些|哪几(?:篇|个|份)|哪(?:篇|个|份))${ZH_DOCS}?(?:里|中)?(?:有|都)?(?:提到|提及|讲到|讲了|说到|谈到|涉及|包含|关于|写了|记录了)(?:了)?(?<topic>.+?)[？?。！!]*$`, 'u'),
  new RegExp(`(?<topic>.+?)(?:在|出现在)(?:哪些|哪几篇|哪篇)${ZH_DOCS}(?:里|中)?(?:出现|提到)?(?:过)?[？?。！!]*$`, 'u'),
  new RegExp(`\\bwhich\\s+(?:of\\s+(?:my|the)\\s+)?${EN_DOCS}\\s+(?:mention|mentions|talk\\s+about|discuss|cover|covers|refer\\s+to|reference|contain|contains|are\\s+about|is\\s+about)\\s+(?<topic>.+?)[?.!]*$`, 'i'),
  new RegExp(`\\b(?:list|find|show)\\s+(?:all\\s+)?(?:the\\s+|my\\s+)?${EN_DOCS}\\s+(?:that\\s+)?(?:mention(?:ing)?|about|on|discuss(?:ing)?|covering|with)\\s+(?<topic>.+?)[?.!]*$`, 'i'),
  new RegExp(`\\bwhere\\s+(?:do\\s+)?(?:my|the)\\s+${EN_DOCS}\\s+(?:mention|talk\\s+about|discuss)\\s+(?<topic>.+?)[?.!]*$`, 'i'),
];

/**
 * The whole-folder question `message` asks, or null for an ordinary question. A catalogue question's
 * `topic` is the thing to look for, quotes and brackets trimmed ("which notes mention `E_CONN_RESET`?" →
 * `E_CONN_RESET`).
 */
export function kbQuestionOf(message: string): KbQuestion | null {
  const text = message.normalize('NFKC').trim();
  for (const pattern of CATALOGUE) {
    const topic = pattern.exec(text)?.groups?.topic;
    const cleaned = topic ? trimTopic(topic) : '';
    if (cleaned) return { kind: 'catalogue', topic: cleaned };
  }
  if (OVERVIEW.some((p) => p.test(text))) return { kind: 'overview' };
  return null;
}

function trimTopic(topic: string): string {
  return topic.trim().replace(/^(?:the\s+|a\s+|an\s+)/i, '').replace(/^["'`“‘「『《(（]+|["'`”’」』》)）]+$/gu, '').trim();
}
