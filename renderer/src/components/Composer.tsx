/**
 * The question field. Enter sends, Shift+Enter starts a new line (never while an input method is
 * composing). Typing `@` offers pages, filtered as you type; choosing one inserts a chip: the page's
 * name in the text (`@部署指南`), drawn as a chip by a backdrop behind the textarea, and sent as its
 * `[[wiki/…]]` reference (lib/chips.ts). Backspace removes a whole chip. The field stays a native
 * textarea, so editing, undo and input methods keep working. A depth selector beside it (default, quick, balanced,
 * deep) is sent with each message; it stays as chosen for the next one.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageSummary, SearchDepth } from '../../../shared/models';
import { messageOf, rebaseChips, removeChipAt, type Chip, type ChipText } from '../lib/chips';
import { splitRefs } from '../lib/mention';
import { Icon } from './Icon';
import { MentionList, optionId } from './MentionList';
import { useMentions } from './useMentions';

/** Props of {@link Composer}. */
export interface ComposerProps {
  pages: PageSummary[];
  /** A turn is running in this conversation: show Stop instead of Send. */
  running: boolean;
  stopping: boolean;
  placeholder: string;
  /** Send the text (with the chosen search depth, none for the settings' default); resolves with an error message,
   *  or null when the turn started. */
  onSend(text: string, depth?: SearchDepth): Promise<string | null>;
  onStop(): void;
}

/** The question field's element id: the "focus the question" shortcut (lib/shortcuts.ts) finds it by this. */
export const COMPOSER_FIELD_ID = 'composer-question';

/** Largest height of the field before it scrolls, in px. */
const MAX_HEIGHT = 220;

function fitHeight(el: HTMLTextAreaElement): void {
  el.style.height = 'auto';
  el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
}

/** The composer with @-mentions. */
export function Composer({ pages, running, stopping, placeholder, onSend, onStop }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [chips, setChips] = useState<Chip[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [depth, setDepth] = useState<SearchDepth | ''>('');
  // Enter while an answer is still being written here (maybe from another window) says why nothing was sent.
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!running) setWaiting(false);
  }, [running]);
  const area = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const nextCaret = useRef<number | null>(null);
  const listId = useId();
  const mentions = useMentions(pages, { text, caret, chips });
  const { mention, matches, activeIndex } = mentions;
  useFieldLayout(area, backdrop, nextCaret, text);

  function apply(next: ChipText | null) {
    if (!next) return;
    nextCaret.current = next.caret;
    setText(next.text);
    setCaret(next.caret);
    setChips(next.chips);
  }

  async function send() {
    const message = messageOf(text, chips).trim();
    if (message && running) setWaiting(true);
    if (!message || running || sending) return;
    setSending(true);
    const error = await onSend(message, depth || undefined);
    setSending(false);
    setProblem(error);
    if (!error) apply({ text: '', caret: 0, chips: [] });
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    const handled = mentions.onKeyDown(e);
    const el = e.currentTarget;
    const collapsed = el.selectionStart === el.selectionEnd;
    const removed = collapsed && (e.key === 'Backspace' || e.key === 'Delete')
      ? removeChipAt({ text, chips, caret: el.selectionStart }, e.key === 'Delete')
      : null;
    if (handled.used) {
      e.preventDefault();
      apply(handled.chosen);
    } else if (removed) {
      e.preventDefault();
      apply(removed);
    } else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  }

  const syncCaret = () => setCaret(area.current?.selectionStart ?? 0);
  const listOpen = !!mention && matches.length > 0;
  return (
    <div className="composer">
      {mention && (
        <MentionList
          id={listId}
          pages={matches}
          active={activeIndex}
          query={mention.query}
          onChoose={(page) => apply(mentions.choose(page))}
          onHover={mentions.setActive}
        />
      )}
      <div className="composer-row">
        <div className="composer-field">
          <div ref={backdrop} className="composer-backdrop" aria-hidden="true">
            <Backdrop text={text} chips={chips} />
            {'\n'}
          </div>
          <textarea
            ref={area}
            id={COMPOSER_FIELD_ID}
            rows={1}
            value={text}
            placeholder={placeholder}
            aria-label={t('composer.question')}
            aria-describedby={problem ? 'composer-error' : 'composer-help'}
            aria-autocomplete="list"
            aria-expanded={!!mention}
            aria-controls={listOpen ? listId : undefined}
            aria-activedescendant={listOpen ? optionId(listId, activeIndex) : undefined}
            onChange={(e) => {
              setChips(rebaseChips(chips, text, e.target.value, e.target.selectionStart));
              setText(e.target.value);
              setCaret(e.target.selectionStart);
              mentions.setActive(0);
            }}
            onSelect={syncCaret}
            onClick={syncCaret}
            onKeyDown={onKeyDown}
            onBlur={mentions.dismiss}
            onFocus={mentions.reopen}
            onScroll={(e) => backdrop.current && (backdrop.current.scrollTop = e.currentTarget.scrollTop)}
          />
        </div>
        <SendOrStop running={running} stopping={stopping} disabled={!text.trim() || sending} onSend={() => void send()} onStop={onStop} />
      </div>
      {/* The depth sits under the field, so the field keeps its width beside a docked reader. */}
      <div className="composer-meta">
        <DepthSelect value={depth} onChange={setDepth} />
        {problem ? (
          <p id="composer-error" role="alert" className="field-error">
            {problem}
          </p>
        ) : waiting ? (
          <p id="composer-help" role="status" className="composer-help composer-waiting">
            {t('composer.waiting')}
          </p>
        ) : (
          <p id="composer-help" className="composer-help">
            {t('composer.help')}
          </p>
        )}
      </div>
    </div>
  );
}

/** What the textarea shows, drawn behind it: chips as chips, a typed `[[wiki/…]]` marked, the rest as text. */
function Backdrop({ text, chips }: { text: string; chips: Chip[] }) {
  const parts: ReactNode[] = [];
  const plain = (from: number, to: number) => {
    splitRefs(text.slice(from, to)).forEach((part, i) => {
      parts.push(part.kind === 'text' ? <span key={`${from}-${i}`}>{part.text}</span> : <mark key={`${from}-${i}`}>{part.raw}</mark>);
    });
  };
  let at = 0;
  for (const chip of chips) {
    plain(at, chip.start);
    parts.push(<mark key={`chip-${chip.start}`} className="chip" data-path={chip.path}>{text.slice(chip.start, chip.end)}</mark>);
    at = chip.end;
  }
  plain(at, text.length);
  return <>{parts}</>;
}

/** Keep the field as tall as its text (also when the column's width changes), the caret where asked, the backdrop aligned. */
function useFieldLayout(
  area: RefObject<HTMLTextAreaElement | null>,
  backdrop: RefObject<HTMLDivElement | null>,
  nextCaret: RefObject<number | null>,
  text: string,
) {
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fitHeight(el);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [area]);

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    fitHeight(el);
    if (nextCaret.current !== null) {
      el.setSelectionRange(nextCaret.current, nextCaret.current);
      nextCaret.current = null;
    }
    if (backdrop.current) backdrop.current.scrollTop = el.scrollTop;
  }, [text, area, backdrop, nextCaret]);
}

const DEPTHS = [
  { value: '', key: 'composer.depthDefault' },
  { value: 'quick', key: 'composer.depthQuick' },
  { value: 'balanced', key: 'composer.depthBalanced' },
  { value: 'deep', key: 'composer.depthDeep' },
] as const satisfies readonly { value: SearchDepth | ''; key: string }[];

/** The per-message search depth: '' leaves it to the settings. */
function DepthSelect({ value, onChange }: { value: SearchDepth | ''; onChange(depth: SearchDepth | ''): void }) {
  const { t } = useTranslation();
  return (
    <select
      className="composer-depth"
      aria-label={t('composer.depth')}
      title={t('composer.depthHelp')}
      value={value}
      onChange={(e) => onChange(e.target.value as SearchDepth | '')}
    >
      {DEPTHS.map((d) => (
        <option key={d.value} value={d.value}>
          {t(d.key)}
        </option>
      ))}
    </select>
  );
}

function SendOrStop(props: { running: boolean; stopping: boolean; disabled: boolean; onSend(): void; onStop(): void }) {
  const { t } = useTranslation();
  if (props.running) {
    return (
      <button type="button" className="composer-button stop" aria-label={t('composer.stopAnswer')} title={t('composer.stop')} onClick={props.onStop} disabled={props.stopping}>
        <Icon name="stop" />
        <span>{props.stopping ? t('composer.stopping') : t('composer.stop')}</span>
      </button>
    );
  }
  return (
    <button type="button" className="composer-button primary" aria-label={t('composer.send')} title={t('composer.sendTitle')} disabled={props.disabled} onClick={props.onSend}>
      <Icon name="send" />
      <span>{t('composer.send')}</span>
    </button>
  );
}
