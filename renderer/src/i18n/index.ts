/**
 * The UI's languages through i18next: English and Simplified Chinese, following the system by
 * default and switchable live (components re-render on `languageChanged`; no reload). Dates and
 * numbers are formatted with `Intl` in the active language.
 */
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Settings } from '../../../shared/settings';
import { coreEn } from './core-en';
import { coreZhCN } from './core-zh-CN';
import { en } from './en';
import { formatsFor, parseAppearance, resolveLanguage, type Formats } from './language';
import { zhCN } from './zh-CN';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

/** Where the last language and theme are remembered, so the next start shows them at once. */
export const PREFERENCE_KEY = 'sift.appearance';

/** The language and theme remembered from the last run (null when unknown or unreadable). */
export function rememberedAppearance(): Pick<Settings, 'language' | 'theme'> | null {
  try {
    return parseAppearance(localStorage.getItem(PREFERENCE_KEY));
  } catch {
    return null; // storage switched off
  }
}

void i18n.use(initReactI18next).init({
  // `core`: the core's messages by code (shared/said.ts), read through lib/spoken.ts.
  resources: { en: { translation: en, core: coreEn }, 'zh-CN': { translation: zhCN, core: coreZhCN } },
  lng: resolveLanguage(rememberedAppearance()?.language ?? 'system', navigator.language),
  fallbackLng: 'en',
  // React escapes what it renders; escaping here too would show `&amp;` in paths and titles.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
document.documentElement.lang = i18n.language;

/** Switch the UI to the language a setting asks for (live; also sets `<html lang>` for fonts and screen readers). */
export function applyLanguage(setting: Settings['language']): void {
  const language = resolveLanguage(setting, navigator.language);
  document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

/** The formatters of the active language; the component re-renders when the language changes. */
export function useFormats(): Formats {
  const { i18n: instance } = useTranslation();
  return formatsFor(instance.language);
}

export { formatsFor, i18n, resolveLanguage, type Formats };
export type { UiLanguage } from './language';
