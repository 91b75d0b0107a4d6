import { describe, expect, it } from 'vitest';
import { recoverToolArguments } from './tool-args';

const EXPECTED = '{"query": "<text>", "limit": 5}';

describe('recoverToolArguments', () => {
  // [name, raw, recovered args, problem]
  const recovered: [string, unknown, Record<string, unknown>, null | 'concatenated'][] = [
    ['an object as is', { query: 'gateway' }, { query: 'gateway' }, null],
    ['an empty object', {}, {}, null],
    ['a JSON string', '{"query":"gateway","limit":3}', { query: 'gateway', limit: 3 }, null],
    ['a JSON string with surrounding whitespace', '\n  {"query": "a"}  \n', { query: 'a' }, null],
    ['a double-encoded JSON string', JSON.stringify(JSON.stringify({ query: 'a' })), { query: 'a' }, null],
    ['two objects back to back', '{"query":"a"}{"query":"b"}', { query: 'a' }, 'concatenated'],
    ['two objects on separate lines', '{"query":"a"}\n{"query":"b"}\n', { query: 'a' }, 'concatenated'],
    ['a json code fence', '```json\n{"query": "a"}\n```', { query: 'a' }, null],
    ['a bare code fence', '```\n{"query": "a"}\n```', { query: 'a' }, null],
    ['text around the object', 'Sure! Here are the arguments: {"query": "a"} Hope that helps.', { query: 'a' }, null],
    ['text and a fence around the object', 'Calling kb_search:\n```json\n{"query": "a"}\n```', { query: 'a' }, null],
    ['prose braces before the object are skipped', 'Use {braces} like {"query": "a"}', { query: 'a' }, null],
    ['nested objects', 'x {"query": "a", "filter": {"folder": {"id": 2}}} y', { query: 'a', filter: { folder: { id: 2 } } }, null],
    ['braces inside strings', 'x {"query": "if (a) { b } }}"} y', { query: 'if (a) { b } }}' }, null],
    ['escaped quotes inside strings', 'x {"query": "say \\"hi {\\" now", "limit": 1} y', { query: 'say "hi {" now', limit: 1 }, null],
    ['an escaped backslash before a closing quote', 'x {"query": "C:\\\\"}{"query": "b"}', { query: 'C:\\' }, 'concatenated'],
    ['unicode text and escapes', 'x {"query": "网关超时 \\u4e2d 😀"} y', { query: '网关超时 中 😀' }, null],
    ['concatenated inside text', 'first {"query":"a"} then {"query":"b"}', { query: 'a' }, 'concatenated'],
  ];

  it.each(recovered)('recovers %s', (_name, raw, args, problem) => {
    expect(recoverToolArguments('kb_search', raw, EXPECTED)).toEqual({ ok: true, args, problem });
  });

  // [name, raw, problem, text the hint must contain]
  const failed: [string, unknown, 'malformed' | 'not_object', string][] = [
    ['an array', [{ query: 'a' }], 'not_object', 'an array'],
    ['a JSON array string', '[{"query": "a"}]', 'not_object', 'an array'],
    ['a number', 42, 'not_object', 'a number'],
    ['a JSON number string', '42', 'not_object', 'a number'],
    ['a boolean', true, 'not_object', 'a boolean'],
    ['a JSON string that is not an object', '"gateway timeout"', 'not_object', 'a string'],
    ['an array in a fence', '```json\n[1, 2]\n```', 'not_object', 'an array'],
    ['null', null, 'malformed', 'missing'],
    ['undefined', undefined, 'malformed', 'missing'],
    ['an empty string', '', 'malformed', 'empty'],
    ['only whitespace', '  \n ', 'malformed', 'empty'],
    ['an empty fence', '```json\n```', 'malformed', 'empty'],
    ['plain text', 'search for gateway timeouts', 'malformed', 'not valid JSON'],
    ['single-quoted keys', "{'query': 'a'}", 'malformed', 'double quotes'],
    ['a truncated object', '{"query": "a", "filter": {"folder": 2}', 'malformed', 'not valid JSON'],
    ['an unterminated string', '{"query": "a}', 'malformed', 'not valid JSON'],
    ['a function', () => 1, 'malformed', 'could not be read'],
  ];

  it.each(failed)('refuses %s', (_name, raw, problem, hintText) => {
    const result = recoverToolArguments('kb_search', raw, EXPECTED);
    expect(result).toMatchObject({ ok: false, problem });
    if (result.ok) return;
    expect(result.hint).toContain(hintText);
    expect(result.hint).toContain('kb_search');
    expect(result.hint).toContain(EXPECTED);
  });

  it('returns the caller’s object itself, not a copy', () => {
    const args = { query: 'a' };
    const result = recoverToolArguments('kb_search', args, EXPECTED);
    expect(result.ok && result.args).toBe(args);
  });
});
