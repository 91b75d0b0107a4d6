/**
 * Servers that do not separate reasoning (llama-server without a reasoning parser, some vLLM setups, Ollama with a
 * model it has no thinking parser for) stream it inside the answer as `<think>…</think>`. This splitter moves it to
 * `thinking` chunks as the text streams in, even when a tag is cut across two deltas, so reasoning never reaches the
 * answer. Servers whose chat template opens the tag in the prompt send only the closing `</think>`: the text streamed
 * before that orphan tag was reasoning too, and the splitter says so with `takesBack` (see {@link LlmChunk}).
 */
import type { LlmChunk } from './types';

const OPEN = '<think>';
const CLOSE = '</think>';

/** Feed streamed text with {@link push}; call {@link flush} at the end for what a possible partial tag held back. */
export class ThinkSplitter {
  private inside = false;
  /** True once any tag was seen: a later stray `</think>` is dropped, never taken as an orphan. */
  private tagged = false;
  /** Answer text given out before any tag: reasoning after all if an orphan `</think>` follows. */
  private given = '';
  /** Text held back because it may be the start of a tag. */
  private held = '';

  /** The chunks of the next piece of text: answer text as `token`, text inside a think block as `thinking`. */
  *push(text: string): Generator<LlmChunk> {
    let rest = this.held + text;
    this.held = '';
    while (rest) {
      const found = this.nextTag(rest);
      if (found) {
        const before = rest.slice(0, found.at);
        rest = rest.slice(found.at + found.tag.length);
        yield* this.atTag(found.tag, before);
        continue;
      }
      const closing = partialTagLength(rest, CLOSE);
      const keep = this.inside ? closing : Math.max(partialTagLength(rest, OPEN), closing);
      const out = rest.slice(0, rest.length - keep);
      if (out) yield this.chunk(out);
      this.held = rest.slice(rest.length - keep);
      return;
    }
  }

  /** What was held back, as it stands (a `<thi` that never became a tag is answer text). */
  *flush(): Generator<LlmChunk> {
    if (this.held) yield this.chunk(this.held);
    this.held = '';
  }

  /** The first tag that matters in `text`: the closing one inside a block; outside, an opening or a stray close. */
  private nextTag(text: string): { at: number; tag: string } | null {
    if (this.inside) {
      const at = text.indexOf(CLOSE);
      return at >= 0 ? { at, tag: CLOSE } : null;
    }
    const open = text.indexOf(OPEN);
    const close = text.indexOf(CLOSE);
    if (close >= 0 && (open < 0 || close < open)) return { at: close, tag: CLOSE };
    return open >= 0 ? { at: open, tag: OPEN } : null;
  }

  /** The chunks for the text before a tag, and the tag's effect. */
  private *atTag(tag: string, before: string): Generator<LlmChunk> {
    if (tag === OPEN || this.inside) {
      if (before) yield this.chunk(before);
      this.inside = tag === OPEN;
      this.tagged = true;
      return;
    }
    // A `</think>` outside a block: an orphan at the start of the stream closes reasoning the prompt opened.
    if (!this.tagged) {
      const thought = this.given + before;
      const takesBack = this.given.length;
      this.given = '';
      this.tagged = true;
      if (thought) yield { type: 'thinking', text: thought, ...(takesBack > 0 ? { takesBack } : {}) };
      return;
    }
    // A stray close after a block: the tag is dropped, the text around it stays answer.
    if (before) yield this.chunk(before);
  }

  private chunk(text: string): LlmChunk {
    if (this.inside) return { type: 'thinking', text };
    if (!this.tagged) this.given += text;
    return { type: 'token', text };
  }
}

/** Length of the longest end of `text` that is a proper beginning of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
