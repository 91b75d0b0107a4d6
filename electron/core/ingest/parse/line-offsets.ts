/**
 * The lines of a text as offsets, for readers that look at most lines for a character or two (plain-text titles,
 * POD, code outlines): a line's text is sliced only when asked for, so a large file costs no object per line.
 */
export class LineOffsets {
  readonly count: number;
  protected readonly starts: number[] = [0];

  constructor(protected readonly text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.starts.push(at + 1);
    this.count = this.starts.length;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  /** Where line `i` ends, before its newline and a carriage return before it. */
  end(i: number): number {
    let end = i + 1 < this.count ? this.starts[i + 1]! - 1 : this.text.length;
    if (end > this.starts[i]! && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** Line `i`'s text ('' outside the text). */
  at(i: number): string {
    return i < 0 || i >= this.count ? '' : this.text.slice(this.starts[i]!, this.end(i));
  }
}
