/** The chat screen: conversations, the open conversation with its composer, and the source reader. */
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState, type MutableRefObject } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { IngestStatus, KnowledgeBase } from '../../../shared/models';
import { useChat, type LiveTurn } from '../state/chat';
import { useConnection } from '../state/connection';
import { isIndexing, useIngest } from '../state/ingest';
import { usePages } from '../state/pages';
import { useUi } from '../state/ui';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { EmptyState } from './EmptyState';
import { HostedNotice } from './HostedNotice';
import { AssistantMessage, StreamingAnswer, UserMessage, type OpenSource } from './Message';
import { PageView } from './PageView';
import { storedSteps, TurnProgress } from './TurnProgress';

const NONE: never[] = [];

/** Chat with one knowledge base. */
export function ChatScreen({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const current = useChat((s) => s.current[kb.id] ?? null);
  const turns = useChat((s) => s.turns);
  const { send, cancel, restore } = useChat();
  const connected = useConnection((s) => s.connected);
  const follow = useRef<(() => void) | null>(null);
  useEffect(() => void restore(kb.id), [kb.id, restore]);
  const pages = usePages((s) => s.pages[kb.id] ?? NONE);
  const reader = usePages((s) => (s.reader?.kbId === kb.id ? s.reader : null));
  const { read } = usePages();
  const { opened, closeReader, readerRef } = useReaderFocus(!!reader);
  const openSource = useCallback<OpenSource>(
    (t) => {
      opened();
      read(kb.id, t.pagePath, t.start !== undefined && t.end !== undefined ? { start: t.start, end: t.end } : null);
    },
    [kb.id, read, opened],
  );
  const live = Object.values(turns).filter(
    (t) => t.kbId === kb.id && t.conversationId === current && (t.running || !!t.lost || (t.error !== null && !t.answerStored)),
  );
  const running = live.find((t) => t.running) ?? null;
  const screenRef = useComposerHeight();

  return (
    <div ref={screenRef} className={reader ? 'chat-screen with-reader' : 'chat-screen'}>
      <ConversationList kbId={kb.id} />
      <section className="thread-column" aria-label={t('chat.conversation')}>
        {!connected && (
          <p role="alert" className="connection-notice">
            {t('chat.disconnected')}
          </p>
        )}
        <HostedNotice kbId={kb.id} />
        <Thread kb={kb} conversationId={current} live={live} openSource={openSource} follow={follow} />
        <Composer
          pages={pages}
          running={!!running}
          stopping={running?.stopping ?? false}
          placeholder={t('chat.askPlaceholder')}
          onSend={(text, depth) => {
            // Sending shows the new question, and the answer is followed as it streams.
            follow.current?.();
            return send(kb.id, text, depth);
          }}
          onStop={() => running && void cancel(running.turnId)}
        />
      </section>
      {/* Shown only where the reader is a drawer over the thread (narrow windows, see chat.css). */}
      {reader && <div className="reader-scrim" aria-hidden="true" onClick={closeReader} />}
      {reader && (
        <aside ref={readerRef} className="reader" aria-label={t('chat.source')} tabIndex={-1}>
          <PageView target={reader} onClose={closeReader} />
        </aside>
      )}
    </div>
  );
}

/**
 * Focus around the source reader: opening it (from a chip or a reference) moves focus into it, so a keyboard reads on
 * there; Esc or its close button closes it and gives focus back to what opened it. Esc is left to an open dialog, and
 * to a field that used it (the @-mention list).
 */
function useReaderFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const readerRef = useRef<HTMLElement>(null);
  const opened = useCallback(() => {
    const active = document.activeElement;
    // A second source opened from inside the reader keeps the first opener.
    if (active instanceof HTMLElement && !readerRef.current?.contains(active)) opener.current = active;
  }, []);
  const closeReader = useCallback(() => {
    usePages.getState().closeReader();
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    if (!open) return;
    readerRef.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      closeReader();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, closeReader]);
  return { opened, closeReader, readerRef };
}

/**
 * Keeps `--composer-height` on the chat screen equal to the composer's height, so the reader, where it
 * is a drawer (narrow windows, see chat.css), ends above the question box instead of covering it.
 */
function useComposerHeight() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const screen = ref.current;
    const composer = screen?.querySelector('.composer');
    if (!screen || !composer) return;
    const observer = new ResizeObserver(() => {
      screen.style.setProperty('--composer-height', `${composer.getBoundingClientRect().height}px`);
    });
    observer.observe(composer);
    return () => observer.disconnect();
  }, []);
  return ref;
}

interface ThreadProps {
  kb: KnowledgeBase;
  conversationId: string | null;
  live: LiveTurn[];
  openSource: OpenSource;
  /** Set by the thread: scroll to the end and follow what arrives (the composer calls it on send). */
  follow: MutableRefObject<(() => void) | null>;
}

function Thread({ kb, conversationId, live, openSource, follow }: ThreadProps) {
  const { t } = useTranslation();
  const messages = useChat((s) => (conversationId ? (s.messages[conversationId] ?? NONE) : NONE));
  const turns = useChat((s) => s.turns);
  const pages = usePages((s) => s.pages[kb.id] ?? NONE);
  const status = useIngest((s) => s.status[kb.id]);
  const conversationCount = useChat((s) => s.conversations[kb.id]?.length ?? 0);
  const show = useUi((s) => s.show);
  const empty = messages.length === 0 && live.length === 0;
  const { scroller, content, behind, jump } = useFollow(conversationId, follow, !empty);

  if (empty) {
    return <div className="thread empty-thread">{emptyState(t, kb, pages.length, conversationCount, status, () => show('folders', 'folder-path'))}</div>;
  }
  return (
    <div className="thread-frame">
      <div ref={scroller} className="thread">
        <div ref={content} className="thread-content">
          {messages.map((m) => {
            if (m.role === 'assistant') {
              // Steps this window saw to the end, else those stored with the answer (after a reload or a lost host).
              const seen = m.turn ? turns[m.turn.turnId]?.steps : undefined;
              const whole = seen?.some((s) => s.kind === 'done' || s.kind === 'failed');
              const steps = (whole ? seen : storedSteps(m.turn)) ?? seen;
              return (
                <Fragment key={m.id}>
                  {steps && <TurnProgress steps={steps} running={false} />}
                  <AssistantMessage message={m} onOpen={openSource} />
                </Fragment>
              );
            }
            // A turn that failed before any answer text keeps its error right under its question.
            const failed = live.find((t) => !t.running && t.userMessageId === m.id);
            return (
              <Fragment key={m.id}>
                <UserMessage content={m.content} pages={pages} onOpen={openSource} />
                {failed && <TurnProgress steps={failed.steps} running={false} />}
                {failed && (
                  <StreamingAnswer
                    text={failed.text} thinking={failed.thinking} error={failed.error ?? lostNote(t, failed)}
                    errorSaid={failed.errorSaid} onOpen={openSource}
                  />
                )}
              </Fragment>
            );
          })}
          {live.filter((t) => t.running || !t.questionStored).map((t) => (
            <div key={t.turnId} className="live-turn">
              {!t.questionStored && <UserMessage content={t.question} pages={pages} onOpen={openSource} />}
              <TurnProgress steps={t.steps} running={t.running} />
              <StreamingAnswer
                text={t.text} thinking={t.thinking} error={t.error} errorSaid={t.errorSaid} onOpen={openSource}
              />
            </div>
          ))}
        </div>
      </div>
      {behind && (
        <button type="button" className="jump-latest" onClick={jump}>
          {t('chat.jumpToLatest')} ↓
        </button>
      )}
    </div>
  );
}

function lostNote(t: TFunction, turn: LiveTurn): string | null {
  return turn.lost ? t('chat.lost') : null;
}

/** How close to the end (px) still counts as "at the latest": the thread follows new text from there. */
const AT_END_PX = 48;

/**
 * Keep the thread at its end while the person is there: new text, references and new turns scroll
 * into view. Scrolling up stops following (and offers a jump back); nothing else moves the view.
 */
function useFollow(conversationId: string | null, follow: MutableRefObject<(() => void) | null>, shown: boolean) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [behind, setBehind] = useState(false);
  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);
  const jump = useCallback(() => {
    pinned.current = true;
    setBehind(false);
    toEnd();
  }, [toEnd]);
  follow.current = jump;

  // Opening a conversation shows its latest messages.
  useLayoutEffect(jump, [conversationId, shown, jump]);

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    let last = el.scrollTop;
    const onScroll = (): void => {
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < AT_END_PX;
      // Only the person scrolling up stops the following; content changing under the view does not.
      if (atEnd) pinned.current = true;
      else if (el.scrollTop < last) pinned.current = false;
      last = el.scrollTop;
      setBehind(!pinned.current);
      if (pinned.current && !atEnd) toEnd();
    };
    const grown = new ResizeObserver(() => (pinned.current ? toEnd() : onScroll()));
    grown.observe(inner);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      grown.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [shown, toEnd]);
  return { scroller, content, behind, jump };
}

function emptyState(
  t: TFunction,
  kb: KnowledgeBase,
  pageCount: number,
  conversationCount: number,
  status: IngestStatus | undefined,
  addFolder: () => void,
) {
  if (kb.folderCount === 0) {
    return (
      <EmptyState title={t('chat.noFoldersTitle')} action={<button className="primary" onClick={addFolder}>{t('chat.addFolder')}</button>}>
        <p>{t('chat.noFoldersText', { name: kb.name })}</p>
      </EmptyState>
    );
  }
  if (isIndexing(status)) {
    return (
      <EmptyState title={t('chat.stillIndexingTitle')}>
        <p>
          {status!.filesTotal ? t('chat.readingSome', { done: status!.filesDone, total: status!.filesTotal }) : t('chat.readingAll')}
          {pageCount ? t('chat.pagesSoFar', { count: pageCount }) : ''}
          {t('chat.askAlready')}
        </p>
      </EmptyState>
    );
  }
  return (
    <EmptyState title={conversationCount === 0 ? t('chat.noConversationsTitle') : t('chat.newConversationTitle')}>
      <p>{t('chat.askBelow', { name: kb.name })}</p>
    </EmptyState>
  );
}
