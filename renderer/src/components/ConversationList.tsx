/** The conversations of a knowledge base: open, start a new one, rename, delete. */
import { useState, type FormEvent } from 'react';
import type { Conversation } from '../../../shared/chat-models';
import { useChat } from '../state/chat';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';

const NONE: never[] = [];

/** The conversation column of the chat screen. */
export function ConversationList({ kbId }: { kbId: string }) {
  const conversations = useChat((s) => s.conversations[kbId] ?? NONE);
  const current = useChat((s) => s.current[kbId] ?? null);
  const { open, startNew, remove } = useChat();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <nav className="conversations" aria-label="Conversations">
      <div className="column-title">
        <h2>Conversations</h2>
        <button type="button" className="icon-button" aria-label="New conversation" title="New conversation" onClick={() => startNew(kbId)}>
          <Icon name="plus" />
        </button>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      {conversations.length === 0 ? (
        <p className="muted column-empty">None yet. Your first question starts one.</p>
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
                onOpen={() => void open(kbId, c.id)}
                onRename={() => setRenaming(c.id)}
                onDelete={() => setDeleting(c)}
              />
            ),
          )}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this conversation?"
          confirmLabel="Delete conversation"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void remove(kbId, id).then(setProblem);
          }}
        >
          <p>“{deleting.title}” and its answers are deleted. The pages it cited stay.</p>
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
  onDelete(): void;
}

function ConversationItem({ conversation: c, current, onOpen, onRename, onDelete }: ItemProps) {
  return (
    <li className={current ? 'conversation current' : 'conversation'}>
      <button type="button" className="conversation-open" aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <span className="conversation-title">{c.title || 'Untitled'}</span>
        <span className="conversation-meta">
          {c.messageCount} message{c.messageCount === 1 ? '' : 's'} · {new Date(c.updatedAt).toLocaleDateString()}
        </span>
      </button>
      <span className="row-actions">
        <button type="button" className="icon-button small" aria-label={`Rename conversation ${c.title}`} title="Rename" onClick={onRename}>
          <Icon name="pencil" size={14} />
        </button>
        <button type="button" className="icon-button small" aria-label={`Delete conversation ${c.title}`} title="Delete" onClick={onDelete}>
          <Icon name="trash" size={14} />
        </button>
      </span>
    </li>
  );
}

function RenameConversation({ kbId, conversation, onDone }: { kbId: string; conversation: Conversation; onDone(): void }) {
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
      <input aria-label="Conversation title" value={title} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && onDone()} />
      <div className="row">
        <button type="submit" className="primary">
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
    </form>
  );
}
