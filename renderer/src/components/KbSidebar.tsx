/** The left sidebar: the knowledge-base switcher and the form that creates one. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isIndexing, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useUi } from '../state/ui';
import { Icon } from './Icon';
import { Problem } from './Problem';

/** The list of knowledge bases (select one to work in it), "New knowledge base", and the settings button. */
export function KbSidebar() {
  const { t } = useTranslation();
  const openSettings = useUi((s) => s.openSettings);
  const setShortcutsOpen = useUi((s) => s.setShortcutsOpen);
  const { kbs, selectedKbId, select } = useKbs();
  const statuses = useIngest((s) => s.status);
  return (
    <aside className="sidebar" aria-label={t('sidebar.label')}>
      <header className="brand">
        <span className="brand-mark" aria-hidden="true">◆</span> Sift
        <button
          type="button"
          className="icon-button brand-shortcuts"
          aria-label={t('shortcuts.title')}
          title={`${t('shortcuts.title')} (?)`}
          onClick={() => setShortcutsOpen(true)}
        >
          <span aria-hidden="true">?</span>
        </button>
        <button type="button" className="icon-button brand-settings" aria-label={t('sidebar.settings')} title={t('sidebar.settings')} onClick={openSettings}>
          <Icon name="gear" />
        </button>
      </header>
      <nav aria-label={t('sidebar.switcher')} className="kb-nav">
        <h2 className="sidebar-heading">{t('sidebar.heading')}</h2>
        <ul className="kb-list" role="list">
          {kbs.map((kb) => {
            const busy = isIndexing(statuses[kb.id]);
            return (
              <li key={kb.id}>
                <button
                  type="button"
                  className={kb.id === selectedKbId ? 'kb-item selected' : 'kb-item'}
                  aria-current={kb.id === selectedKbId ? 'true' : undefined}
                  onClick={() => select(kb.id)}
                >
                  <span className="kb-name">{kb.name}</span>
                  <span className="kb-meta">
                    {busy && <span className="pulse" aria-label={t('sidebar.indexing')} />}
                    {t('sidebar.folders', { count: kb.folderCount })}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      <CreateKbForm />
    </aside>
  );
}

function CreateKbForm() {
  const { t } = useTranslation();
  const create = useKbs((s) => s.create);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const error = await create(name);
    setProblem(error);
    if (!error) setName('');
  }
  return (
    <form className="create-kb" onSubmit={(e) => void submit(e)}>
      <label htmlFor="new-kb-name">{t('sidebar.newKb')}</label>
      <div className="row">
        <input
          id="new-kb-name"
          value={name}
          placeholder={t('sidebar.namePlaceholder')}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? 'new-kb-error' : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit">{t('sidebar.create')}</button>
      </div>
      <Problem id="new-kb-error" message={problem} />
    </form>
  );
}
