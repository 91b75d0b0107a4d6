/**
 * The packaging config flips Electron's fuses (electron-builder 26 `electronFuses`): the packaged
 * binary cannot be turned into plain Node, loads the app only from a verified app.asar, and
 * encrypts its cookie store. Read from electron-builder.yml itself, the file the build uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const config = parse(fs.readFileSync(path.resolve(__dirname, '..', 'electron-builder.yml'), 'utf8')) as {
  asar?: boolean | { disableIntegrity?: boolean };
  electronFuses?: Record<string, unknown>;
};

describe('electron-builder.yml', () => {
  it.each([
    ['runAsNode', false], // ELECTRON_RUN_AS_NODE is ignored
    ['enableNodeOptionsEnvironmentVariable', false], // NODE_OPTIONS is ignored
    ['enableNodeCliInspectArguments', false], // --inspect cannot attach a debugger
    ['enableCookieEncryption', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['onlyLoadAppFromAsar', true],
    ['grantFileProtocolExtraPrivileges', false], // the renderer comes from app://
  ])('sets the fuse %s to %s', (fuse, value) => {
    expect(config.electronFuses?.[fuse]).toBe(value);
  });

  it('packs an asar archive with its integrity hash, which the asar fuses need', () => {
    expect(config.asar).toBe(true);
  });
});
