/**
 * Delivering an export in a browser window: as a download (a Blob link with the sanitised file
 * name the core chose), to the browser's print dialog (PDF), or onto the clipboard. Electron saves
 * through `export.save` instead, so none of this runs there except the clipboard.
 */

/** Offer `content` as a download named `fileName` (the browser may ask where to save it). */
export function downloadFile(fileName: string, mimeType: string, content: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  // The download has taken the data by the next tasks; the URL would otherwise live as long as the page.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The id of the frame that holds the document being printed. */
export const PRINT_FRAME_ID = 'sift-print-frame';

/**
 * Open the browser's print dialog for an HTML document (the person picks "Save as PDF"). The
 * document goes into an off-screen frame, which stays until the next print so the dialog can
 * still read it; a frame shown with `display: none` would print blank in some browsers.
 */
export function printHtml(html: string, doc: Document = document): HTMLIFrameElement {
  doc.getElementById(PRINT_FRAME_ID)?.remove();
  const frame = doc.createElement('iframe');
  frame.id = PRINT_FRAME_ID;
  frame.title = 'Print';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  // The export has no scripts (the core escapes raw HTML); the sandbox makes sure none could run.
  // Same origin so this page may call its print(); modals so the print dialog may open.
  frame.setAttribute('sandbox', 'allow-same-origin allow-modals');
  Object.assign(frame.style, { position: 'fixed', right: '0', bottom: '0', width: '0', height: '0', border: '0' });
  frame.addEventListener('load', () => {
    const win = frame.contentWindow;
    if (!win) return;
    win.focus();
    win.print();
  }, { once: true });
  frame.srcdoc = html;
  doc.body.append(frame);
  return frame;
}

/** Put text on the clipboard; rejects with the browser's reason when it refuses. */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

/** Where the last export folder is remembered. */
const FOLDER_KEY = 'sift.exportFolder';

/** The folder the last export was saved into, or ''. */
export function lastExportFolder(): string {
  try {
    return localStorage.getItem(FOLDER_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Remember the folder an export was saved into. */
export function rememberExportFolder(folder: string): void {
  try {
    localStorage.setItem(FOLDER_KEY, folder);
  } catch {
    // Not remembered; the person types it again next time.
  }
}
