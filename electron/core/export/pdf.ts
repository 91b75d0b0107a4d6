/**
 * PDF from the HTML export. The Electron host prints with its own Chromium (`printToPDF`) and
 * passes that in; elsewhere the machine's Chromium is run headless. With neither, the error says
 * what to install.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SiftError } from '../../../shared/errors';

/** Turns an HTML document into PDF bytes. */
export type PdfRenderer = (html: string) => Promise<Buffer>;

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'];

/** The Chromium to print with: `$SIFT_CHROMIUM`, else the first known install found, else null. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.SIFT_CHROMIUM) return fs.existsSync(env.SIFT_CHROMIUM) ? env.SIFT_CHROMIUM : null;
  return CANDIDATES.find((c) => fs.existsSync(c)) ?? null;
}

/** A renderer that runs the machine's Chromium headless, or one that explains that none was found. */
export function chromiumPdfRenderer(chromium = findChromium()): PdfRenderer {
  return async (html) => {
    if (!chromium) {
      throw new SiftError('unsupported', 'PDF export needs Chromium or Chrome, and none was found; install one (or set SIFT_CHROMIUM to its path), or export HTML and print it from a browser');
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-pdf-'));
    try {
      const input = path.join(dir, 'export.html');
      const output = path.join(dir, 'export.pdf');
      fs.writeFileSync(input, html);
      await promisify(execFile)(
        chromium,
        ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update',
          '--disable-sync', `--user-data-dir=${path.join(dir, 'profile')}`, '--no-pdf-header-footer', `--print-to-pdf=${output}`, pathToFileURL(input).href],
        { timeout: 60_000 },
      );
      if (!fs.existsSync(output)) throw new SiftError('io_error', `${chromium} did not write the PDF`);
      return fs.readFileSync(output);
    } catch (err) {
      if (err instanceof SiftError) throw err;
      throw new SiftError('io_error', `printing the PDF with ${chromium} failed: ${(err as Error).message}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
