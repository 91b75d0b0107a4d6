/** The @-mention state of the composer: the mention being typed, its matches, and keyboard handling. */
import { useState, type KeyboardEvent } from 'react';
import type { PageSummary } from '../../../shared/models';
import { insertMention, matchPages, mentionAt, type MentionQuery } from '../lib/mention';

/** What {@link useMentions} gives the composer. */
export interface Mentions {
  /** The mention being typed, or null when the list is closed. */
  mention: MentionQuery | null;
  matches: PageSummary[];
  activeIndex: number;
  setActive(index: number): void;
  /** The text and caret after choosing `page` for the open mention, or null with none open. */
  choose(page: PageSummary): { text: string; caret: number } | null;
  /** Handle ↑ ↓ Enter Tab Esc while the list is open; true when the key was used. */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): { used: boolean; chosen: { text: string; caret: number } | null };
  /** Close the list for the current mention (it stays closed until a new `@` is typed). */
  dismiss(): void;
  /** Forget a dismissal (the field was refocused or cleared). */
  reopen(): void;
}

/** Track the mention under the caret of `text`, offering matches from `pages`. */
export function useMentions(pages: PageSummary[], text: string, caret: number): Mentions {
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const found = mentionAt(text, caret);
  const mention = found && found.start !== dismissedAt ? found : null;
  const matches = mention ? matchPages(pages, mention.query) : [];
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));

  function choose(page: PageSummary) {
    if (!mention) return null;
    setActive(0);
    return insertMention(text, mention, caret, page.path);
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
