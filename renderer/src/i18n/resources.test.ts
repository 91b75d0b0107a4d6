/** The Chinese resource against the English one: same keys (the type checks that too) and the same placeholders. */
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zhCN } from './zh-CN';

type Tree = { [key: string]: string | Tree };

/** Every string of a resource by its dotted key. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The `{{name}}` placeholders of a string (format names dropped), sorted; and `<tag>`s. */
function placeholders(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([\w]+)[^}]*\}\}/g)].map((m) => m[1]!);
  const tags = [...text.matchAll(/<\/?(\w+)>/g)].map((m) => `<${m[1]}>`);
  return [...names, ...tags].sort();
}

const english = flatten(en as unknown as Tree);
const chinese = flatten(zhCN as unknown as Tree);

describe('zh-CN resource', () => {
  // Chinese has one plural form: `x_other` stands for English `x_one` and `x_other`.
  const pairs = [...english].map(([key, text]) => [key, text, chinese.get(key.replace(/_one$/, '_other'))] as const);

  it.each(pairs)('%s has a translation with the same placeholders', (_key, text, translation) => {
    expect(translation).toBeTypeOf('string');
    expect(translation!.trim()).not.toBe('');
    expect(placeholders(translation!)).toEqual(placeholders(text));
  });

  it('has no key the English resource lacks', () => {
    expect([...chinese.keys()].filter((k) => !english.has(k))).toEqual([]);
  });
});
