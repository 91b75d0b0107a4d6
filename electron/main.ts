/**
 * The Electron host: one hardened window over the built renderer, IPC mapped to the core's
 * `invoke`, events forwarded to the window. Everything else lives in electron/core.
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, type IpcMainInvokeEvent } from 'electron';
import { createSift, embeddingConfigFromEnv, encryptedFileSecrets, keychainCipher, ollamaHostFromEnv, type Sift } from './core';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc';
import { DEFAULT_SETTINGS } from '../shared/settings';
import { CONTENT_SECURITY_POLICY } from './hosts/csp';
import {
  APP_SCHEME, APP_START_URL, isAppUrl, isPermissionAllowed, isTrustedSender, resolveAppFile,
} from './hosts/electron-security';
import { installProcessGuard } from './hosts/process-guard';

app.setName('Sift');
installProcessGuard();
// The renderer is served from app://sift, a real origin of its own, rather than file:// (which reaches every file).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

/** Set by `npm run dev` only: the Vite dev server the window loads instead of the built files. */
const DEV_SERVER_URL = process.env.SIFT_DEV_SERVER_URL ?? null;
/** Vite's hot reload needs its websocket and inline module preamble; the built app never does. */
const POLICY = DEV_SERVER_URL
  ? CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws: http://localhost:*")
  : CONTENT_SECURITY_POLICY;

/** A model folder packed into the app (`npm run package -- --bundle-model DIR`), if any. */
function bundledModels(): string | undefined {
  const dir = path.join(process.resourcesPath ?? '', 'models');
  return app.isPackaged && fs.existsSync(dir) ? dir : undefined;
}

/** PDF export through Electron's own Chromium: the export's HTML in a hidden window, printed. */
async function printToPdf(html: string): Promise<Buffer> {
  const win = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true, javascript: false } });
  try {
    await win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return await win.webContents.printToPDF({ printBackground: true });
  } finally {
    win.destroy();
  }
}
/** Answer app:// requests with the built renderer's files; anything outside its folder is 404. */
function serveRenderer(): void {
  const root = path.join(__dirname, '..', 'renderer');
  protocol.handle(APP_SCHEME, async (request) => {
    const hit = resolveAppFile(request.url, root);
    const body = hit ? await fs.promises.readFile(hit.file).catch(() => null) : null;
    return body && hit ? new Response(body, { headers: hit.headers }) : new Response('Not found', { status: 404 });
  });
}

/** Only Sift's own top frame may call the core; the frame is as Electron reports it. */
function fromApp(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return isTrustedSender(frame ? { url: frame.url, isMainFrame: frame.parent === null } : null, DEV_SERVER_URL);
}

let sift: Sift | null = null;

function createWindow(core: Sift): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Sift',
    show: false,
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // Navigation away from the app and new windows are refused; http(s) links open in the browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, DEV_SERVER_URL)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stop = core.onEvent((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  });
  win.on('closed', stop);
  // `npm run dev` serves the renderer with hot reload; otherwise the built files are loaded.
  if (DEV_SERVER_URL) void win.loadURL(DEV_SERVER_URL);
  else void win.loadURL(APP_START_URL);
  return win;
}

void app.whenReady().then(() => {
  serveRenderer();
  // Every permission is denied unless the policy lists it for Sift's own pages.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, DEV_SERVER_URL));
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission, origin) =>
    isPermissionAllowed(permission, origin, DEV_SERVER_URL),
  );
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [POLICY] } });
  });
  const dataDir = process.env.SIFT_DATA_DIR ?? app.getPath('userData');
  const core = createSift({
    dataDir,
    autoIndex: true,
    watch: true,
    embedding: embeddingConfigFromEnv(),
    settingsDefaults: {
      ollamaHost: ollamaHostFromEnv(process.env.OLLAMA_HOST),
      ...(bundledModels() ? { embedding: { ...DEFAULT_SETTINGS.embedding, localModelDir: bundledModels()! } } : {}),
    },
    renderPdf: printToPdf,
    // Providers' API keys, encrypted by the OS (Keychain, DPAPI, libsecret) through safeStorage; never in plain text.
    secrets: encryptedFileSecrets(path.join(dataDir, 'secrets.json'), keychainCipher(safeStorage)),
  });
  sift = core;
  ipcMain.handle(IPC_INVOKE, async (event, op: unknown, args: unknown) => {
    if (!fromApp(event)) {
      return { ok: false, error: { code: 'unauthorized', message: 'Only Sift\'s own window may call it.' } };
    }
    // The one operation only this host can answer: the OS folder picker.
    if (op === 'app.pickFolder') {
      const win = BrowserWindow.fromWebContents(event.sender);
      const picked = win ? await dialog.showOpenDialog(win, { properties: ['openDirectory'] }) : null;
      return { ok: true, value: { supported: true, path: picked && !picked.canceled ? (picked.filePaths[0] ?? null) : null } };
    }
    return core.invoke(String(op), args);
  });
  createWindow(core);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(core);
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Closing the core waits for the current file's transaction and stops the workers.
app.on('will-quit', (event) => {
  if (!sift) return;
  event.preventDefault();
  const closing = sift;
  sift = null;
  void closing.close().finally(() => app.quit());
});
