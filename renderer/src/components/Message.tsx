/** One message of a conversation: the person's question (with page references as chips) or an answer. */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../shared/chat-models';
import type { PageSummary, Passage } from '../../../shared/models';
import { splitRefs } from '../lib/mention';
import { useRoving } from '../lib/roving';
import { useChat } from '../state/chat';
import { PartedAnswer } from './Answer';
import { AnswerActions } from './AnswerActions';
import { TurnFooter } from './References';
import { Thinking } from './Thinking';
import { spoken } from '../lib/spoken';
import type { SaidMap } from '../../../shared/said';

/** What opening a source needs: a page path and, for a passage, its span. */
export type OpenSource = (target: Pick<Passage, 'pagePath'> & Partial<Pick<Passage, 'start' | 'end'>>) => void;

/** The person's message; `[[wiki/…]]` references show as chips with the page's title. */
export function UserMessage({ content, pages, onOpen }: { content: string; pages: PageSummary[]; onOpen: OpenSource }) {
  const { t } = useTranslation();
  return (
    <div className="message user" role="article" aria-label={t('chat.yourMessage')}>
      <div className="bubble">
        {splitRefs(content).map((part, i) =>
          part.kind === 'text' ? (
            <span key={i}>{part.text}</span>
          ) : (
            <button key={i} type="button" className="ref-chip" title={part.path} onClick={() => onOpen({ pagePath: part.path })}>
              @{pages.find((p) => p.path === part.path)?.title ?? part.path.replace(/^wiki\//, '')}
            </button>
          ),
        )}
      </div>
    </div>
  );
}

/** A finished (or stopped) answer with its references, and copy and export. */
export function AssistantMessage({ message, onOpen }: { message: ChatMessage; onOpen: OpenSource }) {
  const { t } = useTranslation();
  // Why a turn failed is not stored with the message; this window knows it for turns it ran.
  const live = useChat((s) => (message.turn ? s.turns[message.turn.turnId] : undefined));
  const error = live?.error ? spoken(t, live.error, live.errorSaid) : null;
  // The answer's citation chips are one Tab stop; the arrow keys move between them.
  const chips = useRef<HTMLDivElement>(null);
  const onChipKey = useRoving(chips, 'button.cite.valid');
  return (
    <div className="message assistant" role="article" aria-label={t('chat.answer')}>
      {message.content ? (
        <div ref={chips} className="answer-chips" onKeyDown={onChipKey}>
          <PartedAnswer content={message.content} turn={message.turn} onOpenPassage={onOpen} streaming={false} />
        </div>
      ) : (
        <p className="muted">{t('chat.noText')}</p>
      )}
      {message.turn?.thinking && <Thinking text={message.turn.thinking.text} ms={message.turn.thinking.ms} />}
      {message.turn && <TurnFooter turn={message.turn} error={error} onOpenPassage={onOpen} />}
      {message.turn?.provider && (
        <p className="answered-by muted">{t('providers.answeredBy', { provider: message.turn.provider, model: message.turn.model ?? '' })}</p>
      )}
      {message.content && <AnswerActions conversationId={message.conversationId} messageId={message.id} />}
    </div>
  );
}

/** The answer while it streams: Markdown as it arrives (only its last block re-rendered), a caret, chips pending. */
export function StreamingAnswer(props: { text: string; thinking?: string; error: string | null; errorSaid?: SaidMap; onOpen: OpenSource }) {
  const { text, thinking, onOpen } = props;
  const { t } = useTranslation();
  const error = props.error && spoken(t, props.error, props.errorSaid);
  return (
    <div className="message assistant streaming" role="article" aria-label={t('chat.answer')} aria-busy={!error}>
      {text ? (
        <PartedAnswer content={text} turn={null} onOpenPassage={onOpen} streaming />
      ) : (
        !error && !thinking && <p className="thinking">{t('chat.thinking')}</p>
      )}
      {thinking && <Thinking text={thinking} ms={null} />}
      {error && (
        <p role="alert" className="turn-note failed">
          {error}
        </p>
      )}
    </div>
  );
}
