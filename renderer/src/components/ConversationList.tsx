/** The conversations of a knowledge base: open, start a new one, rename, export, delete. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../../shared/chat-models';
import { useFormats } from '../i18n';
import { useChat } from '../state/chat';
import { usePages } from '../state/pages';
import { ConfirmDialog } from './ConfirmDialog';
import { ExportDialog } from './ExportDialog';
import { Icon } from './Icon';
import { Problem } from './Problem';

const NONE: never[] = [];

/** The conversation column of the chat screen. */
export function ConversationList({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const conversations = useChat((s) => s.conversations[kbId] ?? NONE);
  const current = useChat((s) => s.current[kbId] ?? null);
  const { open, startNew, remove } = useChat();
  // The source pane shows a passage of the conversation it was opened from; another conversation closes it.
  const closeReader = usePages((s) => s.closeReader);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // In a narrow window the list is a rail; this opens it over the thread (wide windows ignore it).
  const [expanded, setExpanded] = useState(false);
  return (
    <nav className={expanded ? 'conversations expanded' : 'conversations'} aria-label={t('conversations.heading')}>
      <div className="column-title">
        <button
          type="button"
          className="icon-button conversations-toggle"
          aria-expanded={expanded}
          aria-label={expanded ? t('conversations.hide') : t('conversations.show')}
          title={expanded ? t('conversations.hide') : t('conversations.show')}
          onClick={() => setExpanded(!expanded)}
        >
          <Icon name="chat" />
        </button>
        <h2>{t('conversations.heading')}</h2>
        <button type="button" className="icon-button" aria-label={t('conversations.new')} title={t('conversations.new')} onClick={() => {
          closeReader();
          startNew(kbId);
        }}>
          <Icon name="plus" />
        </button>
      </div>
      <Problem message={problem} />
      {conversations.length === 0 ? (
        <p className="muted column-empty">{t('conversations.none')}</p>
      ) : (
        <ul className="conversation-list" role="list">
          {conversations.map((c) =>
            renaming === c.id ? (
              <li key={c.id}>
                <RenameConversation kbId={kbId} conversation={c} onDone={() => setRenaming(null)} />
              </li>
            ) : (
              <ConversationItem
                key={c.id}
                conversation={c}
                current={c.id === current}
                onOpen={() => {
                  if (c.id !== current) closeReader();
                  setExpanded(false);
                  void open(kbId, c.id);
                }}
                onRename={() => setRenaming(c.id)}
                onExport={() => setExporting(c.id)}
                onDelete={() => setDeleting(c)}
              />
            ),
          )}
        </ul>
      )}
      {exporting && <ExportDialog conversationId={exporting} messageId={null} onClose={() => setExporting(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('conversations.deleteTitle')}
          confirmLabel={t('conversations.deleteConfirm')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void remove(kbId, id).then(setProblem);
          }}
        >
          <p>{t('conversations.deleteText', { title: deleting.title })}</p>
        </ConfirmDialog>
      )}
    </nav>
  );
}

interface ItemProps {
  conversation: Conversation;
  current: boolean;
  onOpen(): void;
  onRename(): void;
  onExport(): void;
  onDelete(): void;
}

function ConversationItem({ conversation: c, current, onOpen, onRename, onExport, onDelete }: ItemProps) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <li className={current ? 'conversation current' : 'conversation'}>
      <button type="button" className="conversation-open" aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <span className="conversation-title" title={c.title}>{c.title || t('conversations.untitled')}</span>
        <span className="conversation-meta" title={format.date(c.updatedAt)}>{t('conversations.meta', { count: c.messageCount, date: format.shortDate(c.updatedAt) })}</span>
      </button>
      <span className="row-actions">
        <button type="button" className="icon-button small" aria-label={t('conversations.renameLabel', { title: c.title })} title={t('common.rename')} onClick={onRename}>
          <Icon name="pencil" size={14} />
        </button>
        <button type="button" className="icon-button small" aria-label={t('conversations.exportLabel', { title: c.title })} title={t('conversations.export')} onClick={onExport}>
          <Icon name="download" size={14} />
        </button>
        <button type="button" className="icon-button small" aria-label={t('conversations.deleteLabel', { title: c.title })} title={t('common.delete')} onClick={onDelete}>
          <Icon name="trash" size={14} />
        </button>
      </span>
    </li>
  );
}

function RenameConversation({ kbId, conversation, onDone }: { kbId: string; conversation: Conversation; onDone(): void }) {
  const { t } = useTranslation();
  const rename = useChat((s) => s.rename);
  const [title, setTitle] = useState(conversation.title);
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const error = await rename(kbId, conversation.id, title);
    if (error) setProblem(error);
    else onDone();
  }
  return (
    <form className="rename-conversation" onSubmit={(e) => void submit(e)}>
      <input aria-label={t('conversations.titleLabel')} value={title} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && onDone()} />
      <div className="row">
        <button type="submit" className="primary">
          {t('common.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
      <Problem message={problem} />
    </form>
  );
}
