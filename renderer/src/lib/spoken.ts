/**
 * A core message in the UI's language: the English text the core sent is looked up in the `said` map that came with
 * it (shared/said.ts) and its code translated from the `core` resources; a text without a code, or with a code this
 * UI does not know, is shown as it came. A parameter that holds English from elsewhere (`detail`, `why`: a library's
 * error, a system error code) picks the message's `_raw` wording where the language has one, which leaves it out.
 */
import type { TFunction } from 'i18next';
import type { Said, SaidMap } from '../../../shared/said';

/** Parameters whose text is a reason in English when they are not themselves messages. */
const REASONS = new Set(['detail', 'why']);

/** `said` translated, or null when the UI has no words for its code (or for one inside it). */
export function speak(t: TFunction, said: Said): string | null {
  const known = t(said.code, { ns: 'core', keySeparator: false, defaultValue: '' } as never) as unknown as string;
  if (!known) return null;
  const params: Record<string, string | number> = {};
  let raw = false;
  for (const [name, value] of Object.entries(said.params ?? {})) {
    if (Array.isArray(value)) {
      const items = value.map((item) => speak(t, item));
      if (items.some((item) => item === null)) raw = true;
      const separator = t('list.separator', { ns: 'core', keySeparator: false, defaultValue: ', ' } as never) as unknown as string;
      params[name] = items.map((item) => item ?? '').join(separator);
    } else if (typeof value === 'object') {
      const inner = speak(t, value);
      if (inner === null) raw = true;
      params[name] = inner ?? '';
    } else {
      if (REASONS.has(name) && typeof value === 'string') raw = true;
      params[name] = value;
    }
  }
  const options = { ns: 'core', keySeparator: false, ...params, ...(raw ? { context: 'raw' } : {}) } as const;
  return t(said.code, options as never) as unknown as string;
}

/** The core's `text` in the UI's language when `said` names its code; else `text` as it is. */
export function spoken(t: TFunction, text: string, said: SaidMap | undefined): string {
  const found = said?.[text];
  return (found && speak(t, found)) || text;
}
