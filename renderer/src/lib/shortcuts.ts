/**
 * The window's keyboard shortcuts, as data: what a key press outside a text field does. The shortcuts help
 * (ShortcutsDialog) lists the same table, so the two never disagree.
 */

/** What a shortcut does. */
export type ShortcutAction = 'focus-question' | 'show-shortcuts';

/** The keys of a key press that matter here. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** True when the press happened in a text field (input, textarea, contenteditable). */
  inField: boolean;
}

/**
 * The action of a key press, or null. `/` focuses the question box and `?` shows the shortcuts from anywhere but a
 * text field (where they are typed); Ctrl+/ (⌘/ on macOS) focuses the question box from anywhere, a field included.
 */
export function shortcutOf(press: KeyPress): ShortcutAction | null {
  const mod = press.ctrlKey || press.metaKey;
  if (mod && !press.altKey && press.key === '/') return 'focus-question';
  if (mod || press.altKey || press.inField) return null;
  if (press.key === '/') return 'focus-question';
  if (press.key === '?') return 'show-shortcuts';
  return null;
}

/** True when `target` takes typed text, so single-key shortcuts must leave its keys alone. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color', 'file'].includes(target.type);
}

/** The rows of the shortcuts help: keys as shown, and the i18n key of what they do. */
export const SHORTCUT_ROWS: { keys: string[]; what: string }[] = [
  { keys: ['/', 'Ctrl+/'], what: 'shortcuts.focusQuestion' },
  { keys: ['?'], what: 'shortcuts.showHelp' },
  { keys: ['Enter'], what: 'shortcuts.send' },
  { keys: ['Shift+Enter'], what: 'shortcuts.newLine' },
  { keys: ['@'], what: 'shortcuts.mention' },
  { keys: ['Tab', 'Shift+Tab'], what: 'shortcuts.tab' },
  { keys: ['←', '→', 'Home', 'End'], what: 'shortcuts.arrows' },
  { keys: ['Enter'], what: 'shortcuts.openSource' },
  { keys: ['Esc'], what: 'shortcuts.close' },
];
