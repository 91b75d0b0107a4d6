/**
 * The core's messages in English, by code: the templates of shared/said.ts as they are (the text the core writes
 * itself), in i18next's `{{name}}` form. One source, so the English UI and the CLI never differ.
 */
import { MESSAGES, type MessageCode } from '../../../shared/said';

export const coreEn = Object.fromEntries(
  Object.entries(MESSAGES).map(([code, template]) => [code, template.replace(/\{(\w+)\}/g, '{{$1}}')]),
) as Record<MessageCode, string> & Record<string, string>;
