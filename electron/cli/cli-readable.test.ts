/**
 * `sift ask` without a model prints the passages readably (issue #25 item 8): no Markdown escapes (`\*`,
 * `\&nbsp;`), character references decoded, a code block kept as a block with its lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { keywordOnlyWithMockOllama, run } from './testing/run';

keywordOnlyWithMockOllama();

describe('sift ask, extractive answer', () => {
  it('prints readable text and keeps code fences as blocks', async () => {
    const data = tempDir();
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'guide.md'), [
      '# Parser guide', '',
      'The **safeParse** method&nbsp;returns a result object &amp; never throws. Use it like *this*:', '',
      '```js', 'const r = schema.safeParse(input);', 'if (!r.success) {', '  console.log(r.error);', '}', '```', '',
      'After parsing, check the success flag before reading data.', '',
    ].join('\n'));
    await run('--data-dir', data, 'kb', 'create', 'Docs');
    await run('--data-dir', data, 'folder', 'add', 'Docs', docs);
    expect((await run('--data-dir', data, 'ingest', 'Docs')).code).toBe(0);
    const ask = await run('--data-dir', data, 'ask', 'Docs', 'how does safeParse work?', '--ollama-host', 'http://127.0.0.1:9');
    expect(ask.out).toContain('The safeParse method returns a result object & never throws. Use it like this:');
    expect(ask.out).toContain('   ```js\n   const r = schema.safeParse(input);\n   if (!r.success) {\n     console.log(r.error);\n   }\n   ```');
    expect(ask.out).toMatch(/After parsing, check the success flag before reading data\. \[1\]/);
    expect(ask.out).not.toMatch(/\\[*&`]|nbsp|&amp;/);
  });
});
