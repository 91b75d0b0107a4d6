/**
 * Recovering a tool call's arguments from what a small local model actually sent. Models wrap the JSON in
 * code fences or prose, send two objects back to back, double-encode it as a string, or send an array.
 * What can be recovered is; what cannot gets a hint the model can act on when it retries.
 */

/** What was wrong with the arguments. */
export type ToolArgsProblem = 'malformed' | 'not_object' | 'concatenated';

/**
 * The recovered arguments, or why there are none. `problem: 'concatenated'` means several objects were
 * sent and only the first is used; `hint` is written to the model, naming the tool and what it expects.
 */
export type RecoveredArgs =
  | { ok: true; args: Record<string, unknown>; problem: null | 'concatenated' }
  | { ok: false; problem: 'malformed' | 'not_object'; hint: string };

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The end (exclusive) of the balanced `{…}` starting at `start`, honouring strings and their escapes, or
 * -1 when the text runs out first (a truncated object). Only braces are counted: JSON.parse judges the rest.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The first complete JSON object in `text` and where it ends. A `{…}` that balances but is not JSON
 * (prose like "{braces}") is skipped; a `{` that never closes ends the search, so a truncated object is
 * not mistaken for one of its nested values.
 */
function firstObject(text: string, from = 0): { value: Record<string, unknown>; end: number } | null {
  for (let start = text.indexOf('{', from); start >= 0; ) {
    const end = objectEnd(text, start);
    if (end < 0) return null;
    const parsed = parseJson(text.slice(start, end));
    if (parsed.ok && isObject(parsed.value)) return { value: parsed.value, end };
    start = text.indexOf('{', end);
  }
  return null;
}

/** The inside of a fenced code block that is the whole text, or the text itself. */
function unfence(text: string): string {
  const fenced = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/.exec(text);
  return fenced ? fenced[1]!.trim() : text;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/**
 * Recovers a tool call's arguments: an object is used as is; a JSON string is parsed (a string holding a
 * JSON-encoded string is unwrapped once, since models double-encode); several objects back to back
 * (`{"q":"a"}{"q":"b"}`) give the first, with problem `'concatenated'`; code fences or text around the
 * object are tolerated (the first complete JSON object is taken, honouring strings and escapes). Any other
 * JSON value — array, number, string, boolean — is `'not_object'`; null, undefined, an empty string and
 * text with no complete object are `'malformed'`.
 * @param toolName the tool the model called, named in the hint.
 * @param raw the arguments as they arrived.
 * @param expected the tool's arguments in a form the model can copy, e.g. `{"query": "<text>", "limit": 5}`.
 */
export function recoverToolArguments(toolName: string, raw: unknown, expected: string): RecoveredArgs {
  const retry = `Call ${toolName} again with exactly one JSON object as its arguments, like ${expected}.`;
  const malformed = (why: string): RecoveredArgs => ({ ok: false, problem: 'malformed', hint: `The arguments for ${toolName} ${why}. ${retry}` });
  const notObject = (value: unknown): RecoveredArgs => ({
    ok: false,
    problem: 'not_object',
    hint: `The arguments for ${toolName} were ${describe(value)}, not a JSON object. ${retry}`,
  });

  if (isObject(raw)) return { ok: true, args: raw, problem: null };
  if (raw === null || raw === undefined) return malformed('were missing');
  if (typeof raw !== 'string') return typeof raw === 'number' || typeof raw === 'boolean' || Array.isArray(raw) ? notObject(raw) : malformed('could not be read');

  const text = unfence(raw.trim());
  if (text === '') return malformed('were empty');
  const whole = parseJson(text);
  if (whole.ok) {
    if (isObject(whole.value)) return { ok: true, args: whole.value, problem: null };
    if (typeof whole.value === 'string') {
      const inner = parseJson(whole.value.trim());
      if (inner.ok && isObject(inner.value)) return { ok: true, args: inner.value, problem: null };
    }
    return notObject(whole.value);
  }
  const first = firstObject(text);
  if (!first) return malformed('were not valid JSON (use double quotes around keys and strings, and close every brace)');
  const another = firstObject(text, first.end);
  return { ok: true, args: first.value, problem: another ? 'concatenated' : null };
}
