/**
 * The settings store: defaults (which a host may adjust, e.g. from OLLAMA_HOST) overlaid with what
 * the person changed, kept in the app database one key per row. Every change is announced so the
 * parts that depend on it (chat, embedding, indexing) pick it up live.
 */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from '../../../shared/settings';
import type { EventBus } from '../base/events';
import { formatZodError } from '../base/validate';

/** Reads and writes settings. */
export class SettingsStore {
  private readonly defaults: Settings;
  private cached: Settings | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly events: EventBus,
    defaults: Partial<Settings> = {},
  ) {
    const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined)) as Partial<Settings>;
    this.defaults = { ...DEFAULT_SETTINGS, ...given, embedding: { ...DEFAULT_SETTINGS.embedding, ...given.embedding } };
  }

  /** The settings in force. */
  get(): Settings {
    if (this.cached) return this.cached;
    const stored = Object.fromEntries(
      (this.db.prepare(`SELECT key, value FROM settings`).all() as { key: string; value: string }[]).map((r) => [r.key, JSON.parse(r.value) as unknown]),
    ) as Partial<Settings>;
    const merged = { ...this.defaults, ...stored, embedding: { ...this.defaults.embedding, ...(stored.embedding ?? {}) } };
    // A stored value that no longer validates (an older version's) falls back to the default.
    const parsed = Settings.safeParse(merged);
    this.cached = parsed.success ? parsed.data : this.defaults;
    return this.cached;
  }

  /** Apply a change (already shaped by the contract), checked as a whole; returns the new settings. */
  set(patch: SettingsPatch): Settings {
    const current = this.get();
    const next = { ...current, ...patch, embedding: { ...current.embedding, ...(patch.embedding ?? {}) } };
    const parsed = Settings.safeParse(next);
    if (!parsed.success) throw new SiftError('invalid_argument', `settings: ${formatZodError(parsed.error)}`);
    const put = this.db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    this.db.transaction(() => {
      for (const key of Object.keys(patch) as (keyof Settings)[]) put.run(key, JSON.stringify(parsed.data[key]));
    })();
    this.cached = parsed.data;
    this.events.emit('settings.changed', parsed.data);
    return parsed.data;
  }
}

/**
 * An Ollama address as users write it in OLLAMA_HOST (`host`, `host:port` or a URL) turned into a
 * URL, or undefined when unset. Without a scheme, port 11434 unless one is given, as Ollama's own
 * tools assume; a full URL is taken as written.
 */
export function ollamaHostFromEnv(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^https?:\/\//i.test(v)) return new URL(v).origin;
  const url = new URL(`http://${v}`);
  if (!url.port) url.port = '11434';
  return url.origin;
}
