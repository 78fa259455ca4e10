/**
 * XML parsing for untrusted input: no DTD at all (so no external entities and no entity
 * expansion), and parse errors are errors, not best-effort trees.
 */
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';

export class UnsafeXmlError extends Error {}

export function parseUntrustedXml(xml: string): Document {
  // A DOCTYPE is the only way to declare entities; SAML never needs one, so refuse it outright
  // rather than trusting a parser setting (XXE, billion laughs, parameter entities).
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new UnsafeXmlError('DOCTYPE is not allowed');
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level: string, msg: string) => {
      if (level !== 'warning') errors.push(msg);
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0) throw new UnsafeXmlError(`malformed XML: ${errors[0]}`);
  if (!doc || !doc.documentElement) throw new UnsafeXmlError('malformed XML: no root element');
  if (doc.doctype) throw new UnsafeXmlError('DOCTYPE is not allowed');
  return doc as Document;
}

export function childElements(parent: Node, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === local) out.push(n as Element);
  }
  return out;
}

export function childElement(parent: Node, ns: string, local: string): Element | undefined {
  return childElements(parent, ns, local)[0];
}

export function descendants(parent: Document | Element, ns: string, local: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, local)) as Element[];
}

/** Text of an element: all text nodes concatenated (comments contribute nothing). */
export function textOf(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  let s = '';
  const walk = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 || c.nodeType === 4) s += c.nodeValue ?? '';
      else if (c.nodeType === 1) walk(c);
    }
  };
  walk(el);
  return s;
}

export { NS, escapeXml } from '../../saml/xml.js';
