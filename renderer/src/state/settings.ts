/**
 * The person's settings as the core keeps them. Every change goes through `settings.set`, which
 * validates it; the store never holds a value the core refused. Language and theme apply at once,
 * also when another window changes them (`settings.changed`).
 */
import { create } from 'zustand';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { client } from '../client';
import { applyLanguage, PREFERENCE_KEY } from '../i18n';
import { applyTheme } from '../lib/theme';

interface SettingsState {
  /** The settings in force, or null before the first answer. */
  settings: Settings | null;
  /** Why the settings could not be read, or null. */
  error: string | null;
  load(): Promise<void>;
  /** Change some settings; resolves with the core's message when it refuses, or null once saved. */
  save(patch: SettingsPatch): Promise<string | null>;
}

/** Apply what the settings change about the window itself, and remember it for the next start. */
function applyAppearance(settings: Settings): void {
  applyLanguage(settings.language);
  applyTheme(settings.theme);
  try {
    localStorage.setItem(PREFERENCE_KEY, JSON.stringify({ language: settings.language, theme: settings.theme }));
  } catch {
    // Storage may be unavailable (private mode); the settings still apply to this window.
  }
}

/** The settings store. */
export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  error: null,

  async load() {
    const result = await client.invoke('settings.get', {});
    if (!result.ok) return set({ error: result.error.message });
    applyAppearance(result.value);
    set({ settings: result.value, error: null });
  },

  async save(patch) {
    const result = await client.invoke('settings.set', { patch });
    if (!result.ok) return result.error.message;
    applyAppearance(result.value);
    set({ settings: result.value, error: null });
    return null;
  },
}));

client.subscribe('settings.changed', (settings) => {
  applyAppearance(settings);
  useSettings.setState({ settings, error: null });
});

// With the language following the system, a change of the system's language applies too.
window.addEventListener('languagechange', () => {
  const language = useSettings.getState().settings?.language ?? 'system';
  if (language === 'system') applyLanguage('system');
});
