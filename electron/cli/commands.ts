/** The CLI's knowledge-base, folder and serve commands. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ollamaHostFromEnv } from '../core';
import { startHttpHost } from '../hosts/http-host';
import { installProcessGuard } from '../hosts/process-guard';
import { call, need, printJson, table, type Command } from './command';
import { UsageError } from './usage';

/** Knowledge-base, folder and serve commands, keyed by their words. */
export const kbCommands: Record<string, Command> = {
  'kb create': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [name] = need(args, ['name']);
      const kb = await call(sift, 'kb.create', { name: name! });
      return flags.json ? printJson(io, kb) : (io.out(kb.id), 0);
    },
  },
  'kb list': {
    words: 2,
    async run({ sift, flags, io }) {
      const kbs = await call(sift, 'kb.list', {});
      if (flags.json) return printJson(io, kbs);
      if (kbs.length === 0) io.out('No knowledge bases yet. Create one with: sift kb create NAME');
      else io.out(table([['ID', 'NAME', 'FOLDERS'], ...kbs.map((k) => [k.id, k.name, String(k.folderCount)])]));
      return 0;
    },
  },
  'kb rename': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [kb, name] = need(args, ['kb', 'newname']);
      const renamed = await call(sift, 'kb.rename', { kb: kb!, name: name! });
      return flags.json ? printJson(io, renamed) : (io.out(`renamed ${renamed.id} to "${renamed.name}"`), 0);
    },
  },
  'kb delete': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      const deleted = await call(sift, 'kb.delete', { kb: kb! });
      return flags.json ? printJson(io, deleted) : (io.out(`deleted ${deleted.id}`), 0);
    },
  },
  'folder add': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [kb, dir] = need(args, ['kb', 'path']);
      const followExternalLinks = flags['follow-links'] ?? false;
      const folder = await call(sift, 'folder.add', { kb: kb!, path: path.resolve(dir!), followExternalLinks });
      return flags.json ? printJson(io, folder) : (io.out(`added ${folder.path}`), 0);
    },
  },
  'folder remove': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [kb, dir] = need(args, ['kb', 'path']);
      const removed = await call(sift, 'folder.remove', { kb: kb!, path: path.resolve(dir!) });
      return flags.json ? printJson(io, removed) : (io.out(`removed ${removed.path}`), 0);
    },
  },
  'folder list': {
    words: 2,
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      const folders = await call(sift, 'folder.list', { kb: kb! });
      if (flags.json) return printJson(io, folders);
      io.out(folders.length ? folders.map((f) => f.path).join('\n') : 'No folders yet. Add one with: sift folder add KB PATH');
      return 0;
    },
  },
  serve: {
    words: 1,
    keepsRunning: true,
    core: () => ({ autoIndex: true, watch: true, settingsDefaults: { ollamaHost: ollamaHostFromEnv(process.env.OLLAMA_HOST) } }),
    async run({ sift, flags, io }) {
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got ${flags.port}`);
      installProcessGuard();
      const staticDir = flags.static ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../out/renderer');
      // A supervisor restarting the host may keep its token, so tabs already open reconnect to the new process.
      const token = process.env.SIFT_HOST_TOKEN || undefined;
      const host = await startHttpHost(sift, { port, staticDir, token });
      io.out(`Sift is running at ${host.url}`);
      // The core closes alongside the host: closing it cancels open turns (an `ask` waiting on its answer), whose
      // requests then end, so the host's close is not left waiting up to a minute for them.
      const stop = () => void Promise.allSettled([host.close(), sift.close()]).then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return 0;
    },
  },
};
