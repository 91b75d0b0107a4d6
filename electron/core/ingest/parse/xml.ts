/**
 * The few XML reads the zip formats need (OOXML slides, ODF, EPUB packages), on htmlparser2 in XML
 * mode: elements by qualified name (`a:t`, `draw:page`; prefixes as the producers write them) and
 * their attributes. Namespaces are not resolved: every producer Sift has met keeps the usual prefixes.
 */
import type { AnyNode, Element } from 'domhandler';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';

export type { Element };

/** The elements of an XML document (entities decoded), or throws on nothing at all. */
export function parseXml(xml: string): AnyNode[] {
  return parseDocument(xml, { xmlMode: true, decodeEntities: true }).children;
}

/** Is `node` an element? */
export function isElement(node: AnyNode): node is Element {
  return node.type === ElementType.Tag;
}

/** Every element named `name` under `nodes`, in document order. */
export function all(nodes: AnyNode[] | Element, name: string): Element[] {
  return DomUtils.findAll((e) => e.name === name, Array.isArray(nodes) ? nodes : nodes.children);
}

/** Every element named one of `names` under `nodes`, in document order (not those inside a match). */
export function allOf(nodes: AnyNode[] | Element, names: readonly string[]): Element[] {
  const out: Element[] = [];
  const visit = (list: AnyNode[]) => {
    for (const node of list) {
      if (!isElement(node)) continue;
      if (names.includes(node.name)) out.push(node);
      else visit(node.children);
    }
  };
  visit(Array.isArray(nodes) ? nodes : nodes.children);
  return out;
}

/** The first element named `name` under `nodes`, or null. */
export function first(nodes: AnyNode[] | Element, name: string): Element | null {
  return DomUtils.findOne((e) => e.name === name, Array.isArray(nodes) ? nodes : nodes.children, true);
}

/** The element's children that are elements named `name`. */
export function childrenNamed(element: Element, name: string): Element[] {
  return element.children.filter((c): c is Element => isElement(c) && c.name === name);
}

/** All text inside `node`, as written. */
export function textOf(node: AnyNode): string {
  return DomUtils.textContent(node);
}
