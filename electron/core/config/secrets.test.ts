import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptedFileSecrets, keychainCipher, NO_SECRETS, resolveApiKey } from './secrets';
import { testCipher } from '../testing/test-cipher';
import { tempDir } from '../testing/temp';

describe('the encrypted key store', () => {
  it('keeps keys encrypted in an owner-only file and gives them back', () => {
    const file = path.join(tempDir(), 'secrets.json');
    const store = encryptedFileSecrets(file, testCipher());
    store.set('box', 'sk-stored-777');
    expect(store.get('box')).toBe('sk-stored-777');
    expect(store.get('other')).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).not.toContain('sk-stored-777');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    store.delete('box');
    expect(store.get('box')).toBeNull();
  });

  it('writes nothing when the system offers no encryption, and says what to use instead', () => {
    const file = path.join(tempDir(), 'secrets.json');
    const store = encryptedFileSecrets(file, testCipher(false));
    expect(store.available).toBe(false);
    expect(() => store.set('box', 'sk-x')).toThrow(/no encryption for stored keys; use SIFT_API_KEY or a key file/);
    expect(fs.existsSync(file)).toBe(false);
    expect(() => NO_SECRETS.set('box', 'sk-x')).toThrow(expect.objectContaining({ code: 'unsupported' }));
  });
});

describe('the OS keychain cipher', () => {
  it('counts Linux without a secret store (basic_text) as no encryption', () => {
    const os = (backend: string) => ({ ...testCipher(), getSelectedStorageBackend: () => backend });
    expect(keychainCipher(os('basic_text'), 'linux').isEncryptionAvailable()).toBe(false);
    expect(keychainCipher(os('gnome_libsecret'), 'linux').isEncryptionAvailable()).toBe(true);
    expect(keychainCipher(os('basic_text'), 'darwin').isEncryptionAvailable()).toBe(true);
    const sealed = keychainCipher(os('kwallet6'), 'linux');
    expect(sealed.decryptString(sealed.encryptString('sk-1'))).toBe('sk-1');
  });
});

describe('resolveApiKey', () => {
  it('reads env, env:NAME and the stored key, and says which variable is missing', () => {
    const env = { SIFT_API_KEY: 'sk-sift', OPENAI_API_KEY: 'sk-openai', MY_KEY: 'sk-mine' };
    expect(resolveApiKey(null, 'box', NO_SECRETS, env)).toBeNull();
    expect(resolveApiKey('env', 'box', NO_SECRETS, env)).toBe('sk-sift');
    expect(resolveApiKey('env', 'box', NO_SECRETS, { OPENAI_API_KEY: 'sk-openai' })).toBe('sk-openai');
    expect(resolveApiKey('env:MY_KEY', 'box', NO_SECRETS, env)).toBe('sk-mine');
    expect(() => resolveApiKey('env:NOPE', 'box', NO_SECRETS, env)).toThrow('The provider "box" takes its API key from NOPE, which is not set.');
    const store = encryptedFileSecrets(path.join(tempDir(), 's.json'), testCipher());
    store.set('box', 'sk-kept');
    expect(resolveApiKey('stored', 'box', store, {})).toBe('sk-kept');
    expect(() => resolveApiKey('stored', 'lab', NO_SECRETS, {})).toThrow(/it is kept by the desktop app; here set SIFT_API_KEY or use a key file/);
  });

  it.runIf(process.platform !== 'win32')('reads a 0600 key file and refuses one others may read', () => {
    const file = path.join(tempDir(), 'key');
    fs.writeFileSync(file, ' sk-file-1 \n');
    fs.chmodSync(file, 0o640);
    expect(() => resolveApiKey(`file:${file}`, 'box', NO_SECRETS, {})).toThrow(`The key file ${file} can be read by others (mode 640); Sift refuses it. Make it yours only: chmod 600 ${file}`);
    fs.chmodSync(file, 0o600);
    expect(resolveApiKey(`file:${file}`, 'box', NO_SECRETS, {})).toBe('sk-file-1');
    expect(() => resolveApiKey(`file:${file}.missing`, 'box', NO_SECRETS, {})).toThrow(/does not exist/);
  });

  // A plain read of a FIFO blocks the thread until someone writes into it: the host's main thread, here. A writer
  // that comes 3 s later stands for "maybe never"; the key file must be refused at once instead (issue #27 item 3).
  it.runIf(process.platform !== 'win32')('refuses a key file that is a FIFO at once, without blocking', () => {
    const fifo = path.join(tempDir(), 'key-pipe');
    expect(spawnSync('mkfifo', ['-m', '600', fifo]).status).toBe(0);
    const writer = spawn('sh', ['-c', `sleep 3; echo sk-from-pipe > '${fifo}'`], { stdio: 'ignore' });
    try {
      const started = performance.now();
      expect(() => resolveApiKey(`file:${fifo}`, 'box', NO_SECRETS, {})).toThrow(
        `The key file of the provider "box" (${fifo}) is not a regular file: a FIFO (named pipe); point it at a plain file holding the key.`,
      );
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe('a provider taken off the list', () => {
  it('takes its stored key with it', async () => {
    const { createSift } = await import('../sift');
    const dataDir = tempDir();
    const secrets = encryptedFileSecrets(path.join(dataDir, 'secrets.json'), testCipher());
    const sift = createSift({ dataDir, secrets });
    const box = { name: 'box', kind: 'openai' as const, baseUrl: 'http://127.0.0.1:1/v1', apiKeyRef: 'stored', defaultModel: null };
    await sift.invoke('providers.setKey', { name: 'box', apiKey: 'sk-gone-soon' });
    await sift.invoke('providers.setKey', { name: 'lab', apiKey: 'sk-stays' });
    await sift.invoke('settings.set', { patch: { providers: [box, { ...box, name: 'lab' }] } });
    expect(await sift.invoke('settings.set', { patch: { providers: [{ ...box, name: 'lab' }] } })).toMatchObject({ ok: true });
    expect(secrets.get('box')).toBeNull();
    expect(secrets.get('lab')).toBe('sk-stays');
    await sift.close();
  });
});
