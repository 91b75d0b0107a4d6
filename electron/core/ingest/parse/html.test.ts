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
    ['a skip link is dropped, an in-page link that says more is not',
      '<a href="#main" class="skip-to-content">Skip to content</a><p id="main">See <a href="#intro">Skip the intro</a>.</p>',
      'See Skip the intro.'],
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

describe('htmlToText drops the bars that move between the pages of a manual', () => {
  // Shaped as Texinfo 6/7 writes a node: a bar above (rel and letter accesskeys), a menu (accesskeys 1–9), a
  // bar below whose links carry neither, but go to the pages the head's <link rel> name.
  const texinfoHead =
    '<title>Types</title><link href="Multiple-ABIs.html" rel="next"><link href="Simple-Example.html" rel="prev">' +
    '<link href="Using-libffi.html" rel="up"><link href="Index.html" rel="index">';
  const topBar =
    '<div class="header"><p>Next: <a href="Multiple-ABIs.html" accesskey="n" rel="next">Multiple ABIs</a>, Previous: ' +
    '<a href="Simple-Example.html" accesskey="p" rel="prev">Simple Example</a>, Up: <a href="Using-libffi.html" ' +
    'accesskey="u" rel="up">Using libffi</a> &nbsp; [<a href="Index.html" rel="index">Index</a>]</p></div>';
  const bottomBar =
    '<div class="header"><p>Next: <a href="Multiple-ABIs.html">Multiple ABIs</a>, Previous: <a href="Simple-Example.html">' +
    'Simple Example</a>, Up: <a href="Using-libffi.html">Using libffi</a> &nbsp; [<a href="Index.html" rel="index">Index</a>]</p></div>';

  it('Texinfo: both bars go; the menu, and a sentence linking to the next page, stay', () => {
    const body =
      `<div class="section">${topBar}<hr><h3>2.3 Types</h3>` +
      '<p>Types are described by <a href="Multiple-ABIs.html">the next section</a> as well.</p>' +
      '<ul class="section-toc"><li><a href="Primitive-Types.html" accesskey="1">Primitive Types</a></li>' +
      '<li><a href="Multiple-ABIs.html" accesskey="2">Multiple ABIs</a></li></ul>' +
      `<hr>${bottomBar}</div>`;
    const doc = htmlToText(page(body, texinfoHead));
    expect(doc.text).toBe('2.3 Types\n\nTypes are described by the next section as well.\n\nPrimitive Types\nMultiple ABIs');
    expect(doc.headings.map((h) => doc.text.slice(h.start, h.end))).toEqual(['2.3 Types']);
  });

  it('DocBook: the header and footer tables go, the second row with the neighbours\' titles too', () => {
    const header =
      '<div class="navheader"><table summary="Navigation header"><tr><th colspan="3">2. Using the core</th></tr><tr>' +
      '<td><a accesskey="p" href="intro.html">Prev</a></td><th>Valgrind User Manual</th>' +
      '<td><a accesskey="n" href="adv.html">Next</a></td></tr></table></div>';
    const footer =
      '<div class="navfooter"><table summary="Navigation footer"><tr><td><a accesskey="p" href="intro.html">Prev</a></td>' +
      '<td><a accesskey="u" href="manual.html">Up</a></td><td><a accesskey="n" href="adv.html">Next</a></td></tr>' +
      '<tr><td>1. Introduction</td><td><a accesskey="h" href="index.html">Home</a></td><td>3. Advanced Topics</td></tr>' +
      '</table></div>';
    const body = `${header}<div class="chapter"><h1>2. Using the core</h1><p>The core runs the program.</p></div>${footer}`;
    expect(htmlToText(page(body)).text).toBe('2. Using the core\n\nThe core runs the program.');
  });

  it('an element with role="navigation" goes (Sphinx\'s related bar, Node\'s module list)', () => {
    const body =
      '<div class="related" role="navigation"><h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li></ul></div>' +
      '<div class="body"><p>Policy text.</p></div>';
    expect(htmlToText(page(body)).text).toBe('Policy text.');
  });

  it.each([
    ['one rel link inside a sentence', '<p>Read <a href="b.html" rel="next">the next part</a> about retries and back-off.</p>',
      'Read the next part about retries and back-off.'],
    ['moving links beside another link', '<p><a href="a.html" rel="prev">Back</a> | <a href="https://example.com/">site</a></p>',
      'Back | site'],
    ['a long block with moving links', `<div><a rel="prev" href="a.html">Prev</a> ${'words '.repeat(60)}<a rel="next" href="c.html">Next</a></div>`,
      `Prev ${'words '.repeat(60)}Next`],
    ['moving links around a heading', '<div><a rel="prev" href="a.html">Prev</a><h2>Title</h2><a rel="next" href="c.html">Next</a></div>',
      'Prev\n\nTitle\n\nNext'],
  ])('keeps %s', (_label, body, text) => {
    expect(htmlToText(page(body)).text).toBe(text);
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
