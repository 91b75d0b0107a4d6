/** The chat screen: conversations, the open conversation with its composer, and the source reader. */
import { Fragment, useCallback, useEffect, useRef } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { IngestStatus, KnowledgeBase } from '../../../shared/models';
import { useChat, type LiveTurn } from '../state/chat';
import { isIndexing, useIngest } from '../state/ingest';
import { usePages } from '../state/pages';
import { useUi } from '../state/ui';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { EmptyState } from './EmptyState';
import { AssistantMessage, StreamingAnswer, UserMessage, type OpenSource } from './Message';
import { PageView } from './PageView';

const NONE: never[] = [];

/** Chat with one knowledge base. */
export function ChatScreen({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const current = useChat((s) => s.current[kb.id] ?? null);
  const turns = useChat((s) => s.turns);
  const { send, cancel } = useChat();
  const pages = usePages((s) => s.pages[kb.id] ?? NONE);
  const reader = usePages((s) => (s.reader?.kbId === kb.id ? s.reader : null));
  const { read, closeReader } = usePages();
  const openSource = useCallback<OpenSource>(
    (t) => read(kb.id, t.pagePath, t.start !== undefined && t.end !== undefined ? { start: t.start, end: t.end } : null),
    [kb.id, read],
  );
  const live = Object.values(turns).filter((t) => t.kbId === kb.id && t.conversationId === current && (t.running || (t.error !== null && !t.answerStored)));
  const running = live.find((t) => t.running) ?? null;
  const screenRef = useComposerHeight();

  return (
    <div ref={screenRef} className={reader ? 'chat-screen with-reader' : 'chat-screen'}>
      <ConversationList kbId={kb.id} />
      <section className="thread-column" aria-label={t('chat.conversation')}>
        <Thread kb={kb} conversationId={current} live={live} openSource={openSource} />
        <Composer
          pages={pages}
          running={!!running}
          stopping={running?.stopping ?? false}
          placeholder={t('chat.askPlaceholder')}
          onSend={(text) => send(kb.id, text)}
          onStop={() => running && void cancel(running.turnId)}
        />
      </section>
      {/* Shown only where the reader is a drawer over the thread (narrow windows, see chat.css). */}
      {reader && <div className="reader-scrim" aria-hidden="true" onClick={closeReader} />}
      {reader && (
        <aside className="reader" aria-label={t('chat.source')}>
          <PageView target={reader} onClose={closeReader} />
        </aside>
      )}
    </div>
  );
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

function Thread({ kb, conversationId, live, openSource }: { kb: KnowledgeBase; conversationId: string | null; live: LiveTurn[]; openSource: OpenSource }) {
  const { t } = useTranslation();
  const messages = useChat((s) => (conversationId ? (s.messages[conversationId] ?? NONE) : NONE));
  const pages = usePages((s) => s.pages[kb.id] ?? NONE);
  const status = useIngest((s) => s.status[kb.id]);
  const conversationCount = useChat((s) => s.conversations[kb.id]?.length ?? 0);
  const show = useUi((s) => s.show);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const shownFor = useRef<string | null>(null);
  const streamed = live.map((t) => t.text.length).join();

  // Opening a conversation shows its latest messages.
  useEffect(() => {
    const el = scroller.current;
    if (!el || messages.length === 0 || shownFor.current === conversationId) return;
    shownFor.current = conversationId;
    el.scrollTop = el.scrollHeight;
  }, [conversationId, messages.length]);

  // Follow the answer while it streams, unless the person scrolled up to read. When it ends, stay
  // put: the references appear below without pulling the answer's start out of view.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current && live.length > 0) el.scrollTop = el.scrollHeight;
  }, [streamed, live.length]);

  if (messages.length === 0 && live.length === 0) {
    return <div className="thread empty-thread">{emptyState(t, kb, pages.length, conversationCount, status, () => show('folders', 'folder-path'))}</div>;
  }
  return (
    <div
      ref={scroller}
      className="thread"
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      {messages.map((m) => {
        if (m.role === 'assistant') return <AssistantMessage key={m.id} message={m} onOpen={openSource} />;
        // A turn that failed before any answer text keeps its error right under its question.
        const failed = live.find((t) => !t.running && t.userMessageId === m.id);
        return (
          <Fragment key={m.id}>
            <UserMessage content={m.content} pages={pages} onOpen={openSource} />
            {failed && <StreamingAnswer text={failed.text} error={failed.error} onOpen={openSource} />}
          </Fragment>
        );
      })}
      {live.filter((t) => t.running || !t.questionStored).map((t) => (
        <div key={t.turnId} className="live-turn">
          {!t.questionStored && <UserMessage content={t.question} pages={pages} onOpen={openSource} />}
          <StreamingAnswer text={t.text} error={t.error} onOpen={openSource} />
        </div>
      ))}
    </div>
  );
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
