import { defineConfig } from 'vitest/config';

// Unit and integration tests run under plain Node: real SQLite files in temp folders, real HTTP on
// 127.0.0.1. Forked workers because better-sqlite3 and sqlite-vec are native modules.
export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
