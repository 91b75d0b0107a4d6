/**
 * The folders of a knowledge base: add one (native picker in the app, a path field everywhere),
 * edit its exclude patterns, remove it.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { Folder, KnowledgeBase } from '../../../shared/models';
import { canPickFolders, client } from '../client';
import { pathProblem } from '../lib/paths';
import { useIngest } from '../state/ingest';
import { useUi } from '../state/ui';
import { ConfirmDialog } from './ConfirmDialog';
import { ExcludeEditor } from './ExcludeEditor';
import { Icon } from './Icon';
import { Problem } from './Problem';

const NO_FOLDERS: never[] = [];

/** Lists a knowledge base's folders with their exclusions and a remove button each, and the form that adds one. */
export function FolderPanel({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const folders = useIngest((s) => s.folders[kb.id] ?? NO_FOLDERS);
  const removeFolder = useIngest((s) => s.removeFolder);
  const [removing, setRemoving] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="panel" aria-labelledby="folders-heading">
      <h2 id="folders-heading">{t('folders.heading')}</h2>
      {folders.length === 0 ? (
        <p className="muted">{t('folders.none')}</p>
      ) : (
        <ul className="folder-list" aria-label={t('folders.listLabel')}>
          {folders.map((f) => (
            <FolderItem key={f.path} kb={kb} folder={f} onRemove={() => setRemoving(f.path)} />
          ))}
        </ul>
      )}
      <Problem message={problem} />
      <AddFolderForm kb={kb} />
      {removing && (
        <ConfirmDialog
          title={t('folders.removeTitle')}
          confirmLabel={t('folders.removeConfirm')}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const path = removing;
            setRemoving(null);
            void removeFolder(kb.id, path).then(setProblem);
          }}
        >
          <p>
            <Trans i18nKey="folders.removeText" values={{ name: kb.name, path: removing }} components={{ code: <code /> }} />
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function FolderItem({ kb, folder: f, onRemove }: { kb: KnowledgeBase; folder: Folder; onRemove(): void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const count = f.excludeGlobs.length;
  return (
    <li className="folder-entry">
      <div className="folder-item">
        <Icon name="folder" />
        <span className="folder-path" title={f.path}>
          {f.path}
        </span>
        {f.pagePrefix && <span className="badge">wiki/{f.pagePrefix}/</span>}
        <button type="button" className="small-button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {count ? t('folders.excludes', { count }) : t('folders.excludesNone')}
        </button>
        <button type="button" className="icon-button" aria-label={t('folders.removeLabel', { path: f.path })} title={t('common.remove')} onClick={onRemove}>
          <Icon name="close" />
        </button>
      </div>
      {editing && <ExcludeEditor kbId={kb.id} folder={f} onDone={() => setEditing(false)} />}
    </li>
  );
}

function AddFolderForm({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const addFolder = useIngest((s) => s.addFolder);
  const { focusRequest, focusDone } = useUi();
  const [path, setPath] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [picker, setPicker] = useState(canPickFolders);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequest !== 'folder-path') return;
    input.current?.focus();
    focusDone();
  }, [focusRequest, focusDone]);

  async function add(value: string) {
    const bad = pathProblem(value);
    const error = bad ? (bad === 'empty' ? t('folders.pathEmpty') : t('folders.pathNotFull')) : await addFolder(kb.id, value.trim());
    setProblem(error);
    if (!error) setPath('');
  }
  async function pick() {
    const result = await client.invoke('app.pickFolder', {});
    if (!result.ok) return setProblem(result.error.message);
    if (!result.value.supported) {
      setPicker(false);
      setProblem(t('folders.noPicker'));
      input.current?.focus();
    } else if (result.value.path) await add(result.value.path);
  }
  return (
    <form
      className="add-folder"
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        void add(path);
      }}
    >
      <label htmlFor="folder-path">{t('folders.addLabel')}</label>
      <div className="row">
        <input
          ref={input}
          id="folder-path"
          value={path}
          placeholder={t('folders.placeholder')}
          spellCheck={false}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby="folder-path-help"
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" className="primary">
          {t('folders.addButton')}
        </button>
        {picker && (
          <button type="button" onClick={() => void pick()}>
            {t('common.choose')}
          </button>
        )}
      </div>
      <p id="folder-path-help" className={problem ? 'field-error' : 'muted'} role={problem ? 'alert' : undefined}>
        {problem ?? t('folders.help')}
      </p>
    </form>
  );
}
