/**
 * Rendering the nodes of lib/page-markdown as React elements: highlighted runs become
 * `<mark class="passage">`, images show their alt text (never loaded), external links open in a
 * new window. All decisions about what is safe were made when the nodes were built.
 */
import { createElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MdElement, MdNode } from '../lib/page-markdown';

/**
 * Render Markdown nodes. `headingOffset` shifts heading levels so a page's `#` sits below its title
 * (0–5, default 0); null renders headings as bold paragraphs (a quote is not part of the outline).
 */
export function MarkdownNodes({ nodes, headingOffset = 0 }: { nodes: MdNode[]; headingOffset?: number | null }) {
  return <>{nodes.map((n, i) => renderNode(n, i, headingOffset))}</>;
}

function renderNode(node: MdNode, key: number, headingOffset: number | null): ReactNode {
  if (node.kind === 'text') {
    return node.marked ? (
      <mark key={key} className="passage">
        {node.text}
      </mark>
    ) : (
      node.text
    );
  }
  const atomic = renderAtomic(node, key);
  if (atomic) return atomic;
  const children = node.children.map((c, i) => renderNode(c, i, headingOffset));
  const level = /^h([1-6])$/.exec(node.tag)?.[1];
  if (level && headingOffset === null) return createElement('p', { key, className: `md-h md-h${level}` }, children);
  if (level && headingOffset !== null) {
    const shown = Math.min(Number(level) + headingOffset, 6);
    return createElement(`h${shown}`, { key, className: `md-h md-h${level}` }, children);
  }
  const { className, href, align, start } = node.attrs;
  const props: Record<string, unknown> = { key };
  if (typeof className === 'string') props.className = className;
  if (typeof align === 'string') props.style = { textAlign: align };
  if (typeof start === 'string') props.start = Number(start);
  if (node.tag === 'a') Object.assign(props, { href, target: '_blank', rel: 'noreferrer noopener', title: href });
  return createElement(node.tag, props, ...children);
}

function renderAtomic(node: MdElement, key: number): ReactNode {
  let inner: ReactNode;
  const { alt, src, checked } = node.attrs;
  if (node.tag === 'img') inner = <BlockedImage key={key} alt={String(alt ?? '')} src={String(src ?? '')} />;
  else if (node.tag === 'input') inner = <input key={key} type="checkbox" checked={checked === true} disabled readOnly />;
  else if (node.tag === 'hr') return <hr key={key} className={node.marked ? 'passage' : undefined} />;
  else if (node.tag === 'br') return <br key={key} />;
  else return null;
  return node.marked ? (
    <mark key={key} className="passage">
      {inner}
    </mark>
  ) : (
    inner
  );
}

function BlockedImage({ alt, src }: { alt: string; src: string }) {
  const { t } = useTranslation();
  return (
    <span className="md-image" title={t('pages.imageBlocked', { src })}>
      {alt || t('pages.image')}
    </span>
  );
}
