import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { declaredCharset, htmlToText } from './html';

function page(body: string, head = '<title>Doc</title>'): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

describe('htmlToText', () => {
  it.each([
    ['paragraphs are separated by a blank line', '<p>One</p><p>Two</p>', 'One\n\nTwo'],
    ['inline markup joins with the source spacing', '<p>Hello <b>bold</b>\n   <i>world</i>!</p>', 'Hello bold world!'],
    ['no space is invented between inline elements', '<p>中<b>文</b>字</p>', '中文字'],
    ['a line break inside Chinese text is not a space', '<p>第一行\n第二行 and\nEnglish</p>', '第一行第二行 and English'],
    ['br is a line break, two are a blank line', '<p>a<br>b<br><br>c</p>', 'a\nb\n\nc'],
    ['list items are lines', '<ul><li>one</li><li>two</li></ul><p>after</p>', 'one\ntwo\n\nafter'],
    ['divs are lines', '<div>a</div><div><div>b</div></div>', 'a\nb'],
    ['table rows are lines, cells separated', '<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>', 'k | v\na | 1'],
    ['pre keeps its whitespace', '<p>x</p><pre>\n  indented\n\tcode  here\n</pre><p>y</p>', 'x\n\n  indented\n\tcode  here\n\ny'],
    ['entities are decoded', '<p>a &amp; b &lt;c&gt; &#x4E2D;&#25991; caf&eacute;&nbsp;x</p>', 'a & b <c> 中文 café x'],
    ['scripts, styles and chrome are dropped',
      '<nav>menu</nav><header>site</header><script>var x</script><style>p{}</style><noscript>js</noscript><aside>ad</aside><form><label>q</label></form><template>t</template><svg><text>s</text></svg><p>kept</p><footer>foot</footer>',
      'kept'],
    ['hidden elements are dropped', '<p>seen</p><p hidden>unseen</p>', 'seen'],
    ['comments are dropped', '<p>a<!-- note -->b</p>', 'ab'],
    ['an article keeps its own header', '<header>site</header><article><header><h1>Post</h1></header><p>text</p></article>', 'Post\n\ntext'],
  ])('%s', (_label, body, text) => {
    expect(htmlToText(page(body)).text).toBe(text);
  });

  it('prefers <main>, then a lone <article>, then <body>', () => {
    expect(htmlToText(page('<div>sidebar</div><main><p>main text</p></main>')).text).toBe('main text');
    expect(htmlToText(page('<div>teaser</div><article><p>the post</p></article>')).text).toBe('the post');
    expect(htmlToText(page('<article><p>one</p></article><article><p>two</p></article><div>more</div>')).text).toBe(
      'one\n\ntwo\n\nmore',
    );
    expect(htmlToText('<p>fragment</p> without body').text).toBe('fragment\n\nwithout body');
  });

  it('records headings as their own lines with exact spans', () => {
    const doc = htmlToText(page('<h1>Retry  <em>policy</em></h1><p>Wait.</p><h2>Back-off &amp; jitter</h2>text<h3></h3><h6>Six</h6>'));
    expect(doc.text).toBe('Retry policy\n\nWait.\n\nBack-off & jitter\n\ntext\n\nSix');
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, 'Retry policy', 'Retry policy'],
      [2, 'Back-off & jitter', 'Back-off & jitter'],
      [6, 'Six', 'Six'],
    ]);
  });

  it.each([
    ['the <title>', page('<h1>Heading</h1>', '<title>  Page\n title </title>'), 'Page title'],
    ['the first h1 when there is no title', page('<h2>Two</h2><h1>One</h1>', ''), 'One'],
    ['the first h1 when the title is blank', page('<h1>One</h1>', '<title> </title>'), 'One'],
    ['null without either', page('<h2>Two</h2>', ''), null],
  ])('title is %s', (_label, html, title) => {
    expect(htmlToText(html).title).toBe(title);
  });
});

describe('declaredCharset', () => {
  it.each([
    ['<meta charset="gbk">', 'gbk'],
    ["<META CHARSET='Big5'>", 'Big5'],
    ['<meta charset=shift_jis>', 'shift_jis'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', 'windows-1252'],
    ['<meta name="viewport" content="width=device-width">', null],
    ['<p>charset=utf-8 in text</p>', null],
  ])('%s → %s', (head, charset) => {
    expect(declaredCharset(Buffer.from(`<html><head>${head}</head><body>x</body></html>`))).toBe(charset);
  });

  it('reads the declaration from bytes in the declared encoding', () => {
    const bytes = iconv.encode('<html><head><meta charset="big5"></head><body>中文</body></html>', 'big5');
    expect(declaredCharset(bytes)).toBe('big5');
  });
});

describe('htmlToText on manuals of many megabytes', () => {
  /** A manual like Node's all.html: `sections` sections of headings, prose, tables, code and lists. */
  function manual(sections: number): string {
    const parts = ['<!doctype html><html><head><title>All</title></head><body>'];
    for (let n = 0; n < sections; n++) {
      parts.push(
        `<h2 id="s${n}">Section ${n} <code>fs.read${n}()</code></h2><p>The <b>quick</b> brown <a href="#x">fox ${n}</a>`,
        ` jumps   over\n the lazy dog.</p><table><tr><td>key${n}</td><td>value ${n}</td></tr></table>`,
        `<pre>const x${n} = ${n};</pre><ul><li>item ${n}</li><li>other&nbsp;${n}</li></ul>`,
      );
    }
    return parts.join('') + '</body></html>';
  }

  // About 230 bytes a section: 36,000 sections ≈ 8 MB. Before TextWriter kept its text as pieces, every write
  // looked at all the text before it and an 8 MB page took a quarter of an hour; the output, not the time, is
  // asserted here (npm run bench:parsers prints MB/s by size).
  it.each([36_000, 72_000])('reads %i sections whole, each heading at its span, the text as written', (sections) => {
    const html = manual(sections);
    expect(html.length).toBeGreaterThan(sections * 200);
    const { text, headings } = htmlToText(html);
    expect(headings).toHaveLength(sections);
    for (const n of [0, Math.floor(sections / 2), sections - 1]) {
      const h = headings[n]!;
      expect(text.slice(h.start, h.end)).toBe(`Section ${n} fs.read${n}()`);
      expect(text.slice(h.end, h.end + 90)).toBe(
        `\n\nThe quick brown fox ${n} jumps over the lazy dog.\n\nkey${n} | value ${n}\n\nconst x${n} = ${n};\n\nitem ${n}\nother ${n}`.slice(0, 90),
      );
    }
    expect(text).not.toMatch(/ {2}| \n|\n{3}/);
    expect(text.endsWith(`other ${sections - 1}`)).toBe(true);
  }, 120_000);
});
