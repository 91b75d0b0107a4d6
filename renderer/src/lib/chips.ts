/**
 * Page references as chips in the composer. The field shows a chip as its page's name (`@部署指南`)
 * while the message sent carries `[[wiki/…]]`; a chip is a range of the field's text bound to a page.
 * Edits move the chips after them, an edit inside a chip unbinds it (its name stays as plain text),
 * and Backspace at a chip's end (Delete at its start) removes the whole chip.
 */
import type { MentionQuery } from './mention';

/** A chip: `text.slice(start, end)` is its label and stands for the page at `path`. */
export interface Chip {
  start: number;
  end: number;
  path: string;
}

/** The field's text, its chips (in text order, never overlapping) and the caret. */
export interface ChipText {
  text: string;
  chips: Chip[];
  caret: number;
}

/** What a chip shows: `@` and the page's title, else its file name without the extension. */
export function chipLabel(page: { title: string; path: string }): string {
  const name = page.title.replace(/\s+/g, ' ').trim() || (page.path.split('/').pop() ?? page.path).replace(/\.[^.]+$/, '');
  return `@${name}`;
}

/** The field after choosing `page` for the mention being typed: `@query` becomes a chip and a space. */
export function insertChip(field: ChipText, mention: MentionQuery, page: { title: string; path: string }): ChipText {
  const label = chipLabel(page);
  const rest = field.text.slice(field.caret).replace(/^ /, '');
  const text = `${field.text.slice(0, mention.start)}${label} ${rest}`;
  const chips = rebaseChips(field.chips, field.text, text, mention.start + label.length + 1);
  const chip = { start: mention.start, end: mention.start + label.length, path: page.path };
  return { text, chips: [...chips, chip].sort((a, b) => a.start - b.start), caret: chip.end + 1 };
}

/**
 * The chips of `before` carried over to `after` (one edit, the caret now at `caret`). The edit is
 * found from the caret (typing and pasting leave it at the end of what was inserted), falling back
 * to the common prefix and suffix. Chips before it stay, chips after it move, chips it touches go.
 */
export function rebaseChips(chips: Chip[], before: string, after: string, caret: number): Chip[] {
  if (before === after || chips.length === 0) return chips;
  const grown = after.length - before.length;
  let from: number;
  let oldEnd: number;
  if (caret >= 0 && caret <= after.length && caret - grown >= 0 && after.slice(caret) === before.slice(caret - grown)) {
    oldEnd = caret - grown;
    from = Math.min(commonPrefix(before, after), caret, oldEnd);
  } else {
    from = commonPrefix(before, after);
    oldEnd = before.length - Math.min(commonSuffix(before, after), before.length - from, after.length - from);
  }
  const insertedInside = (c: Chip) => from > c.start && from < c.end;
  return chips
    .filter((c) => c.end <= from || c.start >= oldEnd)
    .filter((c) => !insertedInside(c))
    .map((c) => (c.start >= oldEnd && c.end > from ? { ...c, start: c.start + grown, end: c.end + grown } : c));
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/**
 * The field with the chip at the caret removed, for Backspace (`forward` false: the chip ending at or
 * around the caret) or Delete (`forward` true: the chip starting at or around it); null when none is there.
 */
export function removeChipAt(field: ChipText, forward: boolean): ChipText | null {
  const { caret } = field;
  const chip = field.chips.find((c) => (forward ? caret >= c.start && caret < c.end : caret > c.start && caret <= c.end));
  if (!chip) return null;
  const text = field.text.slice(0, chip.start) + field.text.slice(chip.end);
  const grown = chip.start - chip.end;
  const chips = field.chips.filter((c) => c !== chip).map((c) => (c.start >= chip.end ? { ...c, start: c.start + grown, end: c.end + grown } : c));
  return { text, chips, caret: chip.start };
}

/** The message to send: each chip written as its `[[wiki/…]]` reference. */
export function messageOf(text: string, chips: Chip[]): string {
  let out = '';
  let at = 0;
  for (const chip of chips) {
    out += `${text.slice(at, chip.start)}[[${chip.path}]]`;
    at = chip.end;
  }
  return out + text.slice(at);
}

/** Whether `index` is where a chip starts (its `@` is not a mention being typed). */
export function startsChip(chips: Chip[], index: number): boolean {
  return chips.some((c) => c.start === index);
}
