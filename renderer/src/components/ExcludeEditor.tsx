/** Edit the exclude patterns of one folder (gitignore syntax, one per line); saving re-indexes. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../shared/models';
import { client } from '../client';
import { parseGlobs } from '../lib/paths';
import { useIngest } from '../state/ingest';

/** Props of {@link ExcludeEditor}. */
export interface ExcludeEditorProps {
  kbId: string;
  folder: Folder;
  /** Called after a save or a cancel. */
  onDone(): void;
}

/** The exclusions editor shown under a folder. */
export function ExcludeEditor({ kbId, folder, onDone }: ExcludeEditorProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(folder.excludeGlobs.join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const result = await client.invoke('folder.update', { kb: kbId, path: folder.path, excludeGlobs: parseGlobs(text) });
    if (!result.ok) {
      setBusy(false);
      return setProblem(result.error.message);
    }
    // The core applies the patterns on the next run; start it so excluded pages leave now.
    const { loadFolders, reindex } = useIngest.getState();
    await loadFolders(kbId);
    const error = await reindex(kbId);
    setBusy(false);
    if (error) setProblem(error);
    else onDone();
  }

  return (
    <form className="exclude-editor" onSubmit={(e) => void save(e)}>
      <label htmlFor={id}>{t('folders.excludesFor', { path: folder.path })}</label>
      <textarea
        id={id}
        rows={4}
        value={text}
        spellCheck={false}
        placeholder={'drafts/\n*.log'}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => setText(e.target.value)}
      />
      <p id={`${id}-help`} className={problem ? 'field-error' : 'muted field-help'} role={problem ? 'alert' : undefined}>
        {problem ?? t('folders.excludesHelp')}
      </p>
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {t('folders.excludesSave')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
