/**
 * Names that would not read as what they are (issue #27 item 3): only zero-width characters, NUL or another
 * control character, a bidirectional override. Refused by the contract's schemas, so the core and the renderer
 * (which checks the same function before sending) agree.
 */
import { describe, expect, it } from 'vitest';
import { operations } from './contract';
import { nameProblem } from './names';
import { ProviderSettings } from './settings';

describe('nameProblem', () => {
  it.each([
    ['\u200b\u200b', 'name.invisible'],
    ['\u200d\ufeff\u2060', 'name.invisible'],
    [' \u200c ', 'name.invisible'],
    ['\u3164', 'name.invisible'],
    ['\u00ad', 'name.invisible'],
    ['Notes\u0000hidden', 'name.control'],
    ['two\nlines', 'name.control'],
    ['invoice\u202etxt.exe', 'name.bidi'],
    ['\u2067isolate', 'name.bidi'],
  ])('refuses %j (%s)', (name, problem) => expect(nameProblem(name)).toBe(problem));

  it.each(['Notes', '运维手册', 'Café ☕', 'a\u200bb', '👩‍💻 work', 'عربي', 'ok (2024)'])('accepts %j', (name) => {
    expect(nameProblem(name)).toBeNull();
  });
});

describe('the contract refuses such names', () => {
  it('for a knowledge base, a conversation title and a provider, saying why', () => {
    const kb = operations['kb.create'].args.safeParse({ name: '\u200b\u200b' });
    expect(kb.success).toBe(false);
    expect(kb.error?.issues[0]?.message).toBe('The name has no visible character (only spaces or zero-width characters).');
    expect(operations['kb.rename'].args.safeParse({ kb: 'x', name: 'a\u0000b' }).error?.issues[0]?.message).toMatch(/control character \(such as NUL/);
    expect(operations['conversations.rename'].args.safeParse({ id: 'c', title: 'x\u202eyz' }).error?.issues[0]?.message).toMatch(/U\+202E/);
    const provider = { name: '\u202ebox', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', apiKeyRef: null, defaultModel: null };
    expect(ProviderSettings.safeParse(provider).success).toBe(false);
    expect(ProviderSettings.safeParse({ ...provider, name: 'box' }).success).toBe(true);
    expect(operations['kb.create'].args.safeParse({ name: '  Notes  ' }).data).toEqual({ name: 'Notes' });
  });
});
