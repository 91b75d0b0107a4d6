/**
 * Names people give (a knowledge base, a model server, a conversation) must read as what they are, in the app, the
 * CLI, an MCP client and a file name alike. Refused: a name of nothing visible (only spaces or zero-width
 * characters, so it shows as blank), one holding a control character (NUL cuts it short in C libraries and logs; a
 * line break forges a line), and one holding a bidirectional control such as U+202E, which shows `txt.exe` as
 * `exe.txt`. One check, here in the contract, so the renderer says it before sending and the core refuses the same.
 */
import { z } from 'zod';
import { MESSAGES } from './said';

/** Why a name is refused, as the code of its message (shared/said.ts). */
export type NameProblem = 'name.invisible' | 'name.control' | 'name.bidi';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the bare direction marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** What shows as nothing: white space, format characters (zero-width space, joiners, BOM, soft hyphen), marks with
 *  nothing to sit on, and the blank letters (Hangul fillers, the braille blank). */
const INVISIBLE = /[\s\p{Cf}\p{Mn}\p{Me}\u115f\u1160\u3164\uffa0\u2800]/gu;

/** Why `name` is refused, or null when it is fine. Length and emptiness are the schema's to check. */
export function nameProblem(name: string): NameProblem | null {
  if (CONTROL.test(name)) return 'name.control';
  if (BIDI.test(name)) return 'name.bidi';
  if (name.length > 0 && name.replace(INVISIBLE, '') === '') return 'name.invisible';
  return null;
}

/** A trimmed name of `min`–`max` characters that {@link nameProblem} accepts; each refusal says why. */
export function nameSchema(messages: { empty: string; tooLong: string }, max: number) {
  return z
    .string()
    .trim()
    .min(1, messages.empty)
    .max(max, messages.tooLong)
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: MESSAGES[problem] });
    });
}
