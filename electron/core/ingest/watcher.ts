/**
 * Watching a knowledge base's folders (chokidar): changes are collected per folder, debounced,
 * and fed to the indexer as a targeted update of just those files, so a saved change is
 * searchable within a couple of seconds without rescanning the folder. Folder-level events
 * (a subfolder removed, the folder itself gone) ask for a full run, which reconciles everything.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Folder } from '../../../shared/models';
import type { Indexer } from './indexer';
import { folderRules, isExcludedPath, isSkippedByName } from './rules';

/** Options of {@link FolderWatcher}. */
export interface WatcherOptions {
  /** Quiet time before collected changes are indexed, in ms. Default 300 (50–5000). */
  debounceMs?: number;
}

/** Watches the folders of knowledge bases and forwards changes to the indexer. */
export class FolderWatcher {
  private readonly watchers = new Map<string, { folder: Folder; watcher: FSWatcher }[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = new Map<string, Map<string, Set<string>>>();
  private readonly debounceMs: number;

  constructor(
    private readonly indexer: Indexer,
    options: WatcherOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 300;
  }

  /** Watch exactly these folders of a knowledge base (replacing what was watched before). */
  async watchKb(kbId: string, folders: Folder[]): Promise<void> {
    await this.unwatchKb(kbId);
    if (folders.length > 0) this.indexer.warm();
    const list = folders.map((folder) => ({ folder, watcher: this.watchFolder(kbId, folder) }));
    this.watchers.set(kbId, list);
    await Promise.all(list.map(({ watcher }) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  }

  /** Stop watching a knowledge base. */
  async unwatchKb(kbId: string): Promise<void> {
    const list = this.watchers.get(kbId) ?? [];
    this.watchers.delete(kbId);
    clearTimeout(this.timers.get(kbId));
    this.timers.delete(kbId);
    this.changed.delete(kbId);
    await Promise.all(list.map(({ watcher }) => watcher.close()));
  }

  /** Stop watching everything. */
  async close(): Promise<void> {
    await Promise.all([...this.watchers.keys()].map((id) => this.unwatchKb(id)));
  }

  private watchFolder(kbId: string, folder: Folder): FSWatcher {
    const watcher = watch(folder.path, {
      ignoreInitial: true,
      followSymlinks: false,
      // Hidden and dependency/build folders are not even watched; the rule below decides the rest.
      ignored: (p: string) => p !== folder.path && isSkippedByName(path.relative(folder.path, p)),
      awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
    });
    const rules = folderRules(folder.path, folder.excludeGlobs);
    const onFile = (abs: string) => {
      const rel = path.relative(folder.path, abs).split(path.sep).join('/');
      // The scan's own rule (gitignore, exclude globs, skipped folders, supported kinds); the indexer checks again.
      if (!isExcludedPath(folder.path, rules, rel)) this.collect(kbId, folder.path, rel);
    };
    watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
    watcher.on('unlinkDir', () => this.indexer.start(kbId));
    watcher.on('error', (err) => {
      console.error(`[sift] watching ${folder.path} failed:`, err);
      this.indexer.start(kbId);
    });
    return watcher;
  }

  private collect(kbId: string, folder: string, rel: string): void {
    let byFolder = this.changed.get(kbId);
    if (!byFolder) this.changed.set(kbId, (byFolder = new Map()));
    let set = byFolder.get(folder);
    if (!set) byFolder.set(folder, (set = new Set()));
    set.add(rel);
    clearTimeout(this.timers.get(kbId));
    this.timers.set(
      kbId,
      setTimeout(() => {
        this.timers.delete(kbId);
        const batch = this.changed.get(kbId);
        this.changed.delete(kbId);
        for (const [f, rels] of batch ?? []) this.indexer.update(kbId, f, [...rels]);
      }, this.debounceMs),
    );
  }
}
