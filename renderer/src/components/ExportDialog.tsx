/**
 * Export an answer or a whole conversation as Markdown, HTML or PDF, with its sources as
 * footnotes (the core renders it; invalid citations are already plain text). In a browser the
 * file is downloaded (PDF: the browser's print dialog) or saved into a typed folder; in the app it
 * is saved into a folder chosen with the OS picker or typed.
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { canPickFolders, client } from '../client';
import { downloadFile, lastExportFolder, printHtml, rememberExportFolder } from '../lib/export';
import { pathProblem } from '../lib/paths';
import { Modal } from './Modal';
import { Problem } from './Problem';

/** Props of {@link ExportDialog}. */
export interface ExportDialogProps {
  conversationId: string;
  /** The answer to export; null exports the whole conversation (no choice offered). */
  messageId: string | null;
  onClose(): void;
}

type Format = 'md' | 'html' | 'pdf';
type Destination = 'download' | 'folder';

/** One export as chosen in the dialog. */
interface ExportRequest {
  conversationId: string;
  messageId: string | undefined;
  format: Format;
  destination: Destination;
  folder: string;
  /** Put the model's reasoning before each answer (off by default). */
  includeThinking: boolean;
}

/** Carry out an export; resolves with where it was saved (`saved`), or a message saying what went wrong. */
async function deliver(request: ExportRequest, t: TFunction): Promise<{ saved: string | null; problem: string | null }> {
  const { conversationId, messageId, format, folder, includeThinking } = request;
  if (request.destination === 'folder') {
    const bad = pathProblem(folder);
    if (bad) return { saved: null, problem: bad === 'empty' ? t('folders.pathEmpty') : t('folders.pathNotFull') };
    const result = await client.invoke('export.save', { conversationId, messageId, format, folder: folder.trim(), includeThinking });
    if (!result.ok) return { saved: null, problem: result.error.message };
    rememberExportFolder(folder.trim());
    return { saved: result.value.path, problem: null };
  }
  const rendered = format === 'pdf' ? 'html' : format;
  const result = await client.invoke('export.render', { conversationId, messageId, format: rendered, includeThinking });
  if (!result.ok) return { saved: null, problem: result.error.message };
  if (format === 'pdf') printHtml(result.value.content);
  else downloadFile(result.value.fileName, result.value.mimeType, result.value.content);
  return { saved: null, problem: null };
}

/** The export dialog. */
export function ExportDialog({ conversationId, messageId, onClose }: ExportDialogProps) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<'answer' | 'conversation'>(messageId ? 'answer' : 'conversation');
  const [format, setFormat] = useState<Format>('md');
  // The app has no downloads: it always saves into a folder.
  const [destination, setDestination] = useState<Destination>(canPickFolders ? 'folder' : 'download');
  const [folder, setFolder] = useState(lastExportFolder);
  const [includeThinking, setIncludeThinking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ saved: string | null; problem: string | null }>({ saved: null, problem: null });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const chosen = scope === 'answer' && messageId ? messageId : undefined;
    const result = await deliver({ conversationId, messageId: chosen, format, destination, folder, includeThinking }, t);
    setBusy(false);
    // A download or a print is handed to the browser: nothing more to show here.
    if (destination === 'download' && !result.problem) onClose();
    else setOutcome(result);
  }

  const submitLabel = destination === 'folder' ? t('export.saveButton') : format === 'pdf' ? t('export.printButton') : t('export.downloadButton');
  return (
    <Modal title={t('export.title')} className="export-dialog" onClose={onClose}>
      <form className="export-form" noValidate onSubmit={(e) => void submit(e)}>
        {messageId && (
          <Choice<'answer' | 'conversation'> legend={t('export.what')} name="scope" value={scope} onChange={setScope} options={[['answer', t('export.thisAnswer')], ['conversation', t('export.wholeConversation')]]} />
        )}
        <Choice<Format> legend={t('export.format')} name="format" value={format} onChange={setFormat} options={[['md', t('export.markdown')], ['html', t('export.html')], ['pdf', t('export.pdf')]]} />
        {!canPickFolders && (
          <Choice<Destination> legend={t('export.destination')} name="destination" value={destination} onChange={setDestination} options={[['download', t('export.download')], ['folder', t('export.toFolder')]]} />
        )}
        <label className="choice-option">
          <input type="checkbox" checked={includeThinking} onChange={(e) => setIncludeThinking(e.target.checked)} />
          {t('export.includeThinking')}
        </label>
        {destination === 'folder' && <FolderField folder={folder} onChange={setFolder} onProblem={(problem) => setOutcome({ saved: null, problem })} />}
        {destination === 'download' && format === 'pdf' && <p className="muted field-help">{t('export.printHint')}</p>}
        <Problem message={outcome.problem} />
        {outcome.saved && (
          <p role="status" className="export-saved">
            {t('export.saved', { path: outcome.saved })}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {outcome.saved ? t('common.close') : t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The folder to save into: typed, or (in the app) chosen with the OS picker. */
function FolderField({ folder, onChange, onProblem }: { folder: string; onChange(folder: string): void; onProblem(message: string): void }) {
  const { t } = useTranslation();
  async function pick() {
    const result = await client.invoke('app.pickFolder', {});
    if (!result.ok) onProblem(result.error.message);
    else if (result.value.path) onChange(result.value.path);
  }
  return (
    <div className="field">
      <label htmlFor="export-folder">{t('export.folder')}</label>
      <div className="row">
        <input id="export-folder" value={folder} placeholder={t('export.folderPlaceholder')} spellCheck={false} aria-describedby="export-folder-help" onChange={(e) => onChange(e.target.value)} />
        {canPickFolders && (
          <button type="button" onClick={() => void pick()}>
            {t('common.choose')}
          </button>
        )}
      </div>
      <p id="export-folder-help" className="muted field-help">
        {t('export.folderHelp')}
      </p>
    </div>
  );
}

/** Props of {@link Choice}. */
interface ChoiceProps<V extends string> {
  legend: string;
  name: string;
  value: V;
  options: [V, string][];
  onChange(value: V): void;
}

/** A group of radio buttons. */
function Choice<V extends string>({ legend, name, value, options, onChange }: ChoiceProps<V>) {
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      {options.map(([v, label]) => (
        <label key={v} className="choice-option">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
