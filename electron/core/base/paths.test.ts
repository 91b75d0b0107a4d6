import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir } from './paths';

describe('data folder', () => {
  it.each([
    ['linux', {}, '/home/u/.config/Sift'],
    ['linux', { XDG_CONFIG_HOME: '/xdg' }, '/xdg/Sift'],
    ['darwin', {}, '/home/u/Library/Application Support/Sift'],
    ['win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u\\AppData\\Roaming\\Sift'],
  ] as const)('on %s with %o is %s', (platform, env, expected) => {
    expect(defaultDataDir(platform, env, '/home/u')).toBe(expected);
  });

  it('prefers the flag, then SIFT_DATA_DIR', () => {
    expect(resolveDataDir('/flag', { SIFT_DATA_DIR: '/env' })).toBe('/flag');
    expect(resolveDataDir(undefined, { SIFT_DATA_DIR: '/env' })).toBe('/env');
  });
});
