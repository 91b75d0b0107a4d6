/** The folders of a knowledge base: add one (native picker in the app, a path field everywhere), remove one. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { KnowledgeBase } from '../../../shared/models';
import { canPickFolders, client } from '../client';
import { useIngest } from '../state/ingest';
import { useUi } from '../state/ui';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';

const NO_FOLDERS: never[] = [];

/** Why a typed path cannot be a folder path, or null. The core checks that it exists and is a folder. */
export function pathProblem(path: string): string | null {
  const p = path.trim();
  if (p === '') return 'Type the path of a folder on this computer.';
  if (!/^(\/|~(\/|$)|[A-Za-z]:[\\/]|\\\\)/.test(p)) return 'Type the full path, starting with / or ~ (or a drive letter such as C:\\ on Windows).';
  return null;
}

/** Lists a knowledge base's folders with a remove button each, and the form that adds one. */
export function FolderPanel({ kb }: { kb: KnowledgeBase }) {
  const folders = useIngest((s) => s.folders[kb.id] ?? NO_FOLDERS);
  const removeFolder = useIngest((s) => s.removeFolder);
  const [removing, setRemoving] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="panel" aria-labelledby="folders-heading">
      <h2 id="folders-heading">Folders</h2>
      {folders.length === 0 ? (
        <p className="muted">No folders yet. Add one below; Sift reads its files and keeps the index up to date.</p>
      ) : (
        <ul className="folder-list" aria-label="Folders of this knowledge base">
          {folders.map((f) => (
            <li key={f.path} className="folder-item">
              <Icon name="folder" />
              <span className="folder-path" title={f.path}>
                {f.path}
              </span>
              {f.pagePrefix && <span className="badge">wiki/{f.pagePrefix}/</span>}
              <button type="button" className="icon-button" aria-label={`Remove folder ${f.path}`} title="Remove" onClick={() => setRemoving(f.path)}>
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      <AddFolderForm kb={kb} />
      {removing && (
        <ConfirmDialog
          title="Remove this folder?"
          confirmLabel="Remove folder"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const path = removing;
            setRemoving(null);
            void removeFolder(kb.id, path).then(setProblem);
          }}
        >
          <p>
            Its pages leave “{kb.name}”. The files in <code>{removing}</code> stay on your disk.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function AddFolderForm({ kb }: { kb: KnowledgeBase }) {
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
    const error = pathProblem(value) ?? (await addFolder(kb.id, value.trim()));
    setProblem(error);
    if (!error) setPath('');
  }
  async function pick() {
    const result = await client.invoke('app.pickFolder', {});
    if (!result.ok) return setProblem(result.error.message);
    if (!result.value.supported) {
      setPicker(false);
      setProblem('This window cannot open a folder picker; type the folder’s path instead.');
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
      <label htmlFor="folder-path">Add a folder</label>
      <div className="row">
        <input
          ref={input}
          id="folder-path"
          value={path}
          placeholder="/home/me/notes"
          spellCheck={false}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby="folder-path-help"
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" className="primary">
          Add folder
        </button>
        {picker && (
          <button type="button" onClick={() => void pick()}>
            Choose…
          </button>
        )}
      </div>
      <p id="folder-path-help" className={problem ? 'field-error' : 'muted'} role={problem ? 'alert' : undefined}>
        {problem ?? 'The full path of a folder on this computer. Markdown, text, PDF, Word, HTML and code files become pages.'}
      </p>
    </form>
  );
}
