/**
 * Where Sift keeps its data. The app passes Electron's userData; the CLI and browser host take
 * `--data-dir`, then `SIFT_DATA_DIR`, then the OS's application-data folder for "Sift" — the same
 * folder Electron uses, so the app and the CLI share one set of knowledge bases.
 */
import os from 'node:os';
import path from 'node:path';

/** The OS's application-data folder for Sift (what Electron calls userData for app "Sift"). */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'Sift');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Sift');
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), 'Sift');
}

/** Pick the data folder: an explicit flag, then `SIFT_DATA_DIR`, then the OS default. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.SIFT_DATA_DIR;
  return chosen ? path.resolve(chosen) : defaultDataDir(process.platform, env);
}

/** The files and folders inside one data folder. */
export function dataPaths(dataDir: string) {
  return {
    appDb: path.join(dataDir, 'sift.sqlite'),
    kbDir: path.join(dataDir, 'kbs'),
    kbDb: (id: string) => path.join(dataDir, 'kbs', `${id}.sqlite`),
    models: path.join(dataDir, 'models'),
    logs: path.join(dataDir, 'logs'),
  };
}
