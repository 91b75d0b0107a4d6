/** The selected knowledge base's title bar: its name, the screen tabs, rename and delete. */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../shared/models';
import { useKbs } from '../state/kbs';
import { useUi, type Screen } from '../state/ui';
import { ConfirmDialog } from './ConfirmDialog';
import { DigestsControl } from './DigestsControl';
import { Icon } from './Icon';
import { Problem } from './Problem';

const SCREENS = [
  { id: 'chat', label: 'kb.tabChat' },
  { id: 'pages', label: 'kb.tabPages' },
  { id: 'folders', label: 'kb.tabFolders' },
] as const satisfies readonly { id: Screen; label: string }[];

/** Title, tabs and actions of one knowledge base. */
export function KbHeader({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useKbs((s) => s.remove);
  return (
    <header className="kb-header">
      <div className="kb-title-row">
        {renaming ? (
          <RenameForm kb={kb} onDone={() => setRenaming(false)} />
        ) : (
          <>
            <h1 id="kb-title">{kb.name}</h1>
            <button type="button" className="icon-button" aria-label={t('kb.renameKb')} title={t('common.rename')} onClick={() => setRenaming(true)}>
              <Icon name="pencil" />
            </button>
            <button type="button" className="icon-button" aria-label={t('kb.deleteKb')} title={t('common.delete')} onClick={() => setDeleting(true)}>
              <Icon name="trash" />
            </button>
            <DigestsControl kb={kb} />
          </>
        )}
      </div>
      <Tabs />
      <Problem message={problem} />
      {deleting && (
        <ConfirmDialog
          title={t('kb.deleteTitle', { name: kb.name })}
          confirmLabel={t('kb.deleteKb')}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            void remove(kb.id).then(setProblem);
          }}
        >
          <p>{t('kb.deleteText')}</p>
        </ConfirmDialog>
      )}
    </header>
  );
}

function RenameForm({ kb, onDone }: { kb: KnowledgeBase; onDone(): void }) {
  const { t } = useTranslation();
  const rename = useKbs((s) => s.rename);
  const [name, setName] = useState(kb.name);
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const error = await rename(kb.id, name);
    if (error) setProblem(error);
    else onDone();
  }
  return (
    <form className="rename-form" onSubmit={(e) => void submit(e)}>
      <input
        aria-label={t('kb.nameLabel')}
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <button type="submit" className="primary">
        {t('common.save')}
      </button>
      <button type="button" onClick={onDone}>
        {t('common.cancel')}
      </button>
      {problem && (
        <span role="alert" className="field-error">
          {problem}
        </span>
      )}
    </form>
  );
}

function Tabs() {
  const { t } = useTranslation();
  const { screen, show } = useUi();
  // Arrow keys move between tabs, as in any tab strip.
  function onKeyDown(e: KeyboardEvent) {
    const at = SCREENS.findIndex((s) => s.id === screen);
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    const next = SCREENS[(at + delta + SCREENS.length) % SCREENS.length]!;
    show(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  }
  return (
    <div role="tablist" aria-label={t('kb.tabs')} className="tabs" onKeyDown={onKeyDown}>
      {SCREENS.map((s) => (
        <button
          key={s.id}
          id={`tab-${s.id}`}
          type="button"
          role="tab"
          aria-selected={screen === s.id}
          aria-controls="screen"
          tabIndex={screen === s.id ? 0 : -1}
          className="tab"
          onClick={() => show(s.id)}
        >
          {t(s.label)}
        </button>
      ))}
    </div>
  );
}
