/**
 * When a chat message searches the knowledge base. The policy searches by default and skips only what is
 * clearly not a question about the person's files: a missed search loses an answer, an extra one only
 * costs a little time and context.
 */
import { parseWikiRefs } from '../../../shared/wiki-refs';

/** Why a message does or does not search. */
export type TriggerReason = 'no_kb' | 'command' | 'explicit_ref' | 'too_short' | 'greeting' | 'app_question' | 'default';

/** Fewer meaningful characters than this (after dropping punctuation, symbols and spaces) do not search. */
export const MIN_SEARCH_CHARS = 3;

/** Whole-message greetings and thanks; compared after dropping punctuation, symbols, spaces and case. */
const GREETINGS = ['你好', 'hi', 'hello', '在吗', '谢谢', 'thanks', 'thx', 'ok', '好的'];

/**
 * Chinese sentence-final particles a greeting may end with (你好啊, 谢谢啦, 好的呀): same greeting, same
 * answer. Only after a greeting, so 你好吗 ("how are you") is a greeting too — still nothing to search.
 */
const PARTICLES = /[啊呀呢哈吧嘛哦喔啦吗么]+$/u;

/** Substrings marking a question about Sift itself (its model, settings, interface), not about the files. */
const APP_QUESTIONS = ['当前模型', '模型是什么', '怎么设置', '怎么用', '界面', '快捷键', '登录'];
const API_KEY = /api[\s_-]?key/i;

const NOT_MEANINGFUL = /[\p{P}\p{S}\s]/gu;

/** Letters and digits only, lower case, full-width folded: the form greetings and lengths are judged in. */
function meaningful(message: string): string {
  return message.normalize('NFKC').toLowerCase().replace(NOT_MEANINGFUL, '');
}

/**
 * A command is `/name` as the first word, like `/help` or `/pdf 导出`. A first word with a second slash is
 * a path (`/etc/hosts 是什么`), which is a question, not a command.
 */
function isCommand(trimmed: string): boolean {
  const first = trimmed.split(/\s/, 1)[0]!;
  return /^[/／]/.test(first) && !/[/／]/.test(first.slice(1));
}

/**
 * Whether a chat message should search the knowledge base, and why. In order: no knowledge base selected
 * → no; a `/command` → no; an explicit `[[wiki/…]]` reference → yes; fewer than {@link MIN_SEARCH_CHARS}
 * characters once punctuation, symbols and spaces are dropped → no; a greeting or thanks as the whole
 * message (你好, hi, hello, 在吗, 谢谢, thanks, thx, ok, 好的; case and punctuation ignored, trailing
 * particles like 你好啊 allowed) → no; a question about the app (当前模型, 模型是什么, 怎么设置, 怎么用,
 * 界面, 快捷键, 登录, API key — anywhere, any case) → no; anything else → yes.
 */
export function shouldSearch(message: string, kbSelected: boolean): { search: boolean; reason: TriggerReason } {
  if (!kbSelected) return { search: false, reason: 'no_kb' };
  const trimmed = message.trim();
  if (isCommand(trimmed)) return { search: false, reason: 'command' };
  if (parseWikiRefs(message).refs.length > 0) return { search: true, reason: 'explicit_ref' };
  const words = meaningful(trimmed);
  if ([...words].length < MIN_SEARCH_CHARS) return { search: false, reason: 'too_short' };
  if (GREETINGS.includes(words) || GREETINGS.includes(words.replace(PARTICLES, ''))) return { search: false, reason: 'greeting' };
  const lower = trimmed.toLowerCase();
  if (APP_QUESTIONS.some((q) => lower.includes(q)) || API_KEY.test(trimmed)) return { search: false, reason: 'app_question' };
  return { search: true, reason: 'default' };
}
