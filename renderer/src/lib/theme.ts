/**
 * Light and dark. The stylesheet follows the system (`prefers-color-scheme`) through CSS
 * `light-dark()` colours; a `data-theme` attribute on `<html>` pins one scheme instead.
 */
import type { Settings } from '../../../shared/settings';

/** The `data-theme` value for a theme setting, or null to follow the system. */
export function themeAttribute(theme: Settings['theme']): 'light' | 'dark' | null {
  return theme === 'system' ? null : theme;
}

/** Apply a theme setting to the document (`<html data-theme>`; removed for `system`). */
export function applyTheme(theme: Settings['theme'], root: HTMLElement = document.documentElement): void {
  const value = themeAttribute(theme);
  if (value) root.dataset.theme = value;
  else delete root.dataset.theme;
}
