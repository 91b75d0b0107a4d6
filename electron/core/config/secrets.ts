/**
 * API keys of model providers, kept out of the settings table. The settings hold only where a key comes from (an
 * {@link ApiKeyRef}); the key itself is read when a client is made: from the desktop app's encrypted store (Electron
 * `safeStorage`, handed in by the host as a {@link Cipher}), from an environment variable, or from a key file only its
 * owner can read. A key never goes into a message, a log line or an event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../base/safe-read';
import { SiftError } from '../../../shared/errors';
import type { ApiKeyRef } from '../../../shared/settings';
import { PRIVATE_FILE_MODE } from '../store/private';

/** Keys kept by the host, by provider name. */
export interface SecretStore {
  /** True when keys can be kept here (the desktop app, with the OS's encryption available). */
  readonly available: boolean;
  /** The key of `name`, or null when none is kept. */
  get(name: string): string | null;
  /** Keep `key` for `name`, replacing one kept before. Throws SiftError('unsupported') when not {@link available}. */
  set(name: string, key: string): void;
  /** Forget the key of `name` (nothing when none is kept). */
  delete(name: string): void;
}

/** What the host's encryption offers: Electron's `safeStorage` has exactly this shape. */
export interface Cipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Electron's `safeStorage` as it is: a {@link Cipher}, plus (Linux) which secret store it uses. */
export interface OsCipher extends Cipher {
  getSelectedStorageBackend?(): string;
}

/**
 * `storage` when the OS really protects what it encrypts. On Linux without a secret store (backend `basic_text`)
 * Electron encrypts with a password written into Chromium, which protects nothing: keys are then not kept at all.
 */
export function keychainCipher(storage: OsCipher, platform: NodeJS.Platform = process.platform): Cipher {
  const weak = () => platform === 'linux' && storage.getSelectedStorageBackend?.() === 'basic_text';
  return {
    isEncryptionAvailable: () => storage.isEncryptionAvailable() && !weak(),
    encryptString: (text) => storage.encryptString(text),
    decryptString: (sealed) => storage.decryptString(sealed),
  };
}

/** No store: browser mode and the CLI, where keys come from the environment or a key file. */
export const NO_SECRETS: SecretStore = {
  available: false,
  get: () => null,
  set: () => {
    throw new SiftError(
      'unsupported',
      'Only the desktop app can keep an API key (encrypted). Here, put it in SIFT_API_KEY (or OPENAI_API_KEY) or in a ' +
        'key file readable only by you (chmod 600), and choose that as the key source.',
    );
  },
  delete: () => undefined,
};

/**
 * Keys encrypted with `cipher`, kept in `file` (JSON of base64 ciphertexts by provider name, mode 0600). Nothing is
 * written in plain text: when the OS offers no encryption the store is unavailable.
 */
export function encryptedFileSecrets(file: string, cipher: Cipher): SecretStore {
  const read = (): Record<string, string> => {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const write = (all: Record<string, string>) => {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(all), { mode: PRIVATE_FILE_MODE });
  };
  return {
    get available() {
      return cipher.isEncryptionAvailable();
    },
    get(name) {
      const sealed = read()[name];
      if (!sealed || !cipher.isEncryptionAvailable()) return null;
      try {
        return cipher.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        return null; // sealed by another user or machine: as if none were kept
      }
    },
    set(name, key) {
      if (!cipher.isEncryptionAvailable()) {
        throw new SiftError('unsupported', 'This system offers no encryption for stored keys; use SIFT_API_KEY or a key file (chmod 600) instead.');
      }
      write({ ...read(), [name]: cipher.encryptString(key).toString('base64') });
    },
    delete(name) {
      const all = read();
      if (!(name in all)) return;
      delete all[name];
      write(all);
    },
  };
}

/**
 * The API key `ref` points to for provider `name`, or null for none. Throws SiftError('invalid_argument') with what to
 * do when it cannot be had: nothing stored, an unset variable, a missing or empty key file, or a key file that others
 * may read (its mode is not 0600 or narrower; POSIX only).
 */
export function resolveApiKey(ref: ApiKeyRef | null, name: string, secrets: SecretStore, env: NodeJS.ProcessEnv = process.env): string | null {
  if (ref === null) return null;
  if (ref === 'stored') {
    const kept = secrets.get(name);
    if (kept) return kept;
    const fallback = env.SIFT_API_KEY || env.OPENAI_API_KEY;
    if (fallback) return fallback;
    const where = secrets.available ? 'enter it in Settings' : 'it is kept by the desktop app; here set SIFT_API_KEY or use a key file';
    throw new SiftError('invalid_argument', `No API key is stored for the provider "${name}": ${where}.`);
  }
  if (ref === 'env' || ref.startsWith('env:')) {
    const names = ref === 'env' ? ['SIFT_API_KEY', 'OPENAI_API_KEY'] : [ref.slice('env:'.length)];
    const value = names.map((n) => env[n]?.trim()).find((v) => v);
    if (value) return value;
    throw new SiftError('invalid_argument', `The provider "${name}" takes its API key from ${names.join(' or ')}, which is not set.`);
  }
  return readKeyFile(ref.slice('file:'.length), name);
}

/** A key file is a line; anything longer is not one. */
const KEY_FILE_MAX_BYTES = 64 << 10;
const KEY_FILE_TIME_LIMIT_MS = 2000;

/**
 * The text of a key file, read only when it is a regular file: a FIFO (or a device) named as the key file would
 * block the host's main thread forever on a plain read, so the file is opened non-blocking and checked first.
 */
function keyFileText(file: string, name: string): string {
  const read = readRegularFile(file, KEY_FILE_MAX_BYTES, KEY_FILE_TIME_LIMIT_MS);
  if (read.ok) return read.bytes.toString('utf8');
  const why = read.why === 'too_large' ? `is larger than ${KEY_FILE_MAX_BYTES / 1024} KB` : read.why === 'timeout' ? 'took too long to read' : `is ${read.detail}`;
  throw new SiftError('invalid_argument', `The key file of the provider "${name}" (${file}) ${why}; point it at a plain file holding the key.`);
}

function readKeyFile(file: string, name: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new SiftError('invalid_argument', `The key file of the provider "${name}" (${file}) does not exist.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
    throw new SiftError(
      'invalid_argument',
      `The key file ${file} can be read by others (mode ${mode}); Sift refuses it. Make it yours only: chmod 600 ${file}`,
    );
  }
  const key = keyFileText(file, name).trim();
  if (!key) throw new SiftError('invalid_argument', `The key file of the provider "${name}" (${file}) is empty.`);
  return key;
}
