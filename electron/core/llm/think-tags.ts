/**
 * Servers that do not separate reasoning (llama-server without a reasoning parser, some vLLM setups) stream it inside
 * the answer as `<think>…</think>`. This splitter moves it to `thinking` chunks as the text streams in, even when a tag
 * is cut across two deltas, so reasoning never reaches the answer.
 */
import type { LlmChunk } from './types';

const OPEN = '<think>';
const CLOSE = '</think>';

/** Feed streamed text with {@link push}; call {@link flush} at the end for what a possible partial tag held back. */
export class ThinkSplitter {
  private inside = false;
  /** Text held back because it may be the start of a tag. */
  private held = '';

  /** The chunks of the next piece of text: answer text as `token`, text inside a think block as `thinking`. */
  *push(text: string): Generator<LlmChunk> {
    let rest = this.held + text;
    this.held = '';
    while (rest) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = rest.indexOf(tag);
      if (at >= 0) {
        if (at > 0) yield this.chunk(rest.slice(0, at));
        rest = rest.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      const keep = partialTagLength(rest, tag);
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

  private chunk(text: string): LlmChunk {
    return this.inside ? { type: 'thinking', text } : { type: 'token', text };
  }
}

/** Length of the longest end of `text` that is a proper beginning of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
