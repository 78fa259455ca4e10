/**
 * XML helpers the SAML code shares: escaping for the documents we build, and a parser for the
 * documents we are sent that refuses DTDs outright (no external entities, no entity expansion).
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export class XmlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlInputError';
  }
}

/** Parses untrusted XML. Any DOCTYPE is refused, so neither XXE nor entity expansion can happen. */
export function parseUntrustedXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new XmlInputError('XML with a DOCTYPE is not accepted');
  const errors: string[] = [];
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') errors.push(String(msg));
      },
    }).parseFromString(xml, 'text/xml');
  } catch (err) {
    // xmldom throws a ParseError for fatal problems (e.g. no root element).
    throw new XmlInputError(`not well-formed XML: ${(err as Error).message}`);
  }
  if (errors.length > 0 || !doc.documentElement) throw new XmlInputError(`not well-formed XML: ${errors[0] ?? 'no root element'}`);
  return doc;
}

export function childElements(parent: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const el = n as Element;
      if (el.namespaceURI === ns && el.localName === localName) out.push(el);
    }
  }
  return out;
}

export function firstChild(parent: Element, ns: string, localName: string): Element | undefined {
  return childElements(parent, ns, localName)[0];
}

/** Text content of an element with comments ignored (a comment must not cut a value short). */
export function textOf(el: Element | undefined): string {
  if (!el) return '';
  let s = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 || n.nodeType === 4) s += n.nodeValue ?? '';
    else if (n.nodeType === 1) s += textOf(n as Element);
  }
  return s;
}
