/**
 * Exporting as one self-contained HTML file: the Markdown export rendered (GFM, footnotes as links
 * to anchors), inline CSS, no scripts. Raw HTML in an answer is shown as the text it is, never
 * passed through (so an exported file can never run anything) and never dropped (so no words of
 * the answer are lost, as they would be inside a dropped HTML block). Links keep only safe URLs (links.ts).
 */
import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import { dropUnsafeUrls } from './links';

const STYLE = `
  body { font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "PingFang SC", sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.6rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-top: 1px solid #ddd; padding-top: 1rem; }
  code { background: #f2f2f2; padding: 0 .2em; border-radius: 3px; }
  pre { background: #f6f6f6; padding: .8rem; overflow: auto; }
  sup a { text-decoration: none; }
  section.footnotes { margin-top: 2.5rem; font-size: .9rem; color: #444; border-top: 1px solid #ddd; }
  #footnote-label { border: none; margin-top: 1rem; font-size: 1rem; }
  @media print { body { margin: 0; } a { color: inherit; } }`;

/** Render Markdown (GFM with footnotes) to an HTML document titled `title`. */
export function markdownToHtmlDocument(markdown: string, title: string, lang: string): string {
  // With the raw-HTML constructs switched off, `<tag>` is parsed as the literal text it is.
  const noRawHtml = { disable: { null: ['htmlFlow', 'htmlText'] } };
  const mdast = fromMarkdown(markdown, { extensions: [gfm(), noRawHtml], mdastExtensions: [gfmFromMarkdown()] });
  const hast = toHast(mdast, { allowDangerousHtml: false, footnoteLabel: lang.startsWith('zh') ? '来源' : 'Sources' }) as Root;
  // The Markdown export has had its unsafe links taken out already; this also covers any other Markdown.
  dropUnsafeUrls(hast);
  const body = toHtml(hast);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>${STYLE}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
