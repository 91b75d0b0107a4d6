/** Choosing the UI language and formatting numbers and dates in it: pure, so they run anywhere. */
import type { Settings } from '../../../shared/settings';

/** A language the UI is written in. */
export type UiLanguage = 'en' | 'zh-CN';

/**
 * The UI language for a `language` setting: `en` or `zh-CN` as set, and for `system` the system's
 * language (`navigator.language`): Chinese in any region or script (`zh`, `zh-TW`, `zh-Hans-CN`)
 * reads the Simplified Chinese UI, everything else (or nothing known) English.
 */
export function resolveLanguage(setting: Settings['language'], systemLanguage: string | undefined): UiLanguage {
  if (setting !== 'system') return setting;
  return /^zh\b/i.test(systemLanguage ?? '') ? 'zh-CN' : 'en';
}

/** Formatters of numbers, dates and times in one language. */
export interface Formats {
  /** A number with the language's grouping, e.g. `12,345`. */
  number(value: number): string;
  /** A calendar date, e.g. `Nov 29, 2026` or `2026年11月29日`. */
  date(iso: string): string;
  /** A time of day, e.g. `2:05:09 PM` or `14:05:09`. */
  time(iso: string): string;
  /**
   * A date for a narrow list, relative to `now` (default: the current time): the time on the same day
   * (`14:05`), month and day in the same year (`Nov 29`, `11月29日`), else a numeric date (`2025/11/29`).
   */
  shortDate(iso: string, now?: Date): string;
}

/** The formatters for `language` (a BCP 47 tag such as `en` or `zh-CN`), in the local time zone. */
export function formatsFor(language: string, timeZone?: string): Formats {
  const numbers = new Intl.NumberFormat(language);
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone });
  const times = new Intl.DateTimeFormat(language, { timeStyle: 'medium', timeZone });
  const day = new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone });
  const year = new Intl.DateTimeFormat('en', { year: 'numeric', timeZone });
  const clock = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone });
  const monthDay = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone });
  const numeric = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'numeric', day: 'numeric', timeZone });
  return {
    number: (value) => numbers.format(value),
    date: (iso) => dates.format(new Date(iso)),
    time: (iso) => times.format(new Date(iso)),
    shortDate(iso, now = new Date()) {
      const at = new Date(iso);
      if (day.format(at) === day.format(now)) return clock.format(at);
      return (year.format(at) === year.format(now) ? monthDay : numeric).format(at);
    },
  };
}

/**
 * The language and theme as remembered in storage (`{"language":…,"theme":…}`), or null when
 * missing, unreadable or holding a value this version does not know.
 */
export function parseAppearance(raw: string | null): Pick<Settings, 'language' | 'theme'> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw ?? 'null');
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { language, theme } = value as Record<string, unknown>;
  const languages: unknown[] = ['system', 'en', 'zh-CN'];
  const themes: unknown[] = ['system', 'light', 'dark'];
  return languages.includes(language) && themes.includes(theme) ? { language: language as Settings['language'], theme: theme as Settings['theme'] } : null;
}
