/** The @-mention state of the composer: the mention being typed, its matches, and keyboard handling. */
import { useState, type KeyboardEvent } from 'react';
import type { PageSummary } from '../../../shared/models';
import { insertChip, startsChip, type ChipText } from '../lib/chips';
import { matchPages, mentionAt, type MentionQuery } from '../lib/mention';

/** What {@link useMentions} gives the composer. */
export interface Mentions {
  /** The mention being typed, or null when the list is closed. */
  mention: MentionQuery | null;
  matches: PageSummary[];
  activeIndex: number;
  setActive(index: number): void;
  /** The field after choosing `page` for the open mention (it becomes a chip), or null with none open. */
  choose(page: PageSummary): ChipText | null;
  /** Handle ↑ ↓ Enter Tab Esc while the list is open; true when the key was used. */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): { used: boolean; chosen: ChipText | null };
  /** Close the list for the current mention (it stays closed until a new `@` is typed). */
  dismiss(): void;
  /** Forget a dismissal (the field was refocused or cleared). */
  reopen(): void;
}

/** Track the mention under the caret of the field, offering matches from `pages` (a chip's own `@` is none). */
export function useMentions(pages: PageSummary[], field: ChipText): Mentions {
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const found = mentionAt(field.text, field.caret);
  const mention = found && found.start !== dismissedAt && !startsChip(field.chips, found.start) ? found : null;
  const matches = mention ? matchPages(pages, mention.query) : [];
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));

  function choose(page: PageSummary) {
    if (!mention) return null;
    setActive(0);
    return insertChip(field, mention, page);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    const none = { used: false, chosen: null };
    if (!mention) return none;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(matches.length ? (activeIndex + step + matches.length) % matches.length : 0);
      return { used: true, chosen: null };
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && matches.length) return { used: true, chosen: choose(matches[activeIndex]!) };
    if (e.key === 'Escape') {
      setDismissedAt(mention.start);
      return { used: true, chosen: null };
    }
    return none;
  }

  return {
    mention,
    matches,
    activeIndex,
    setActive,
    choose,
    onKeyDown,
    dismiss: () => setDismissedAt(mention?.start ?? dismissedAt),
    reopen: () => setDismissedAt(null),
  };
}
