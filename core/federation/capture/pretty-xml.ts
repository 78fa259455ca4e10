/**
 * A captured SAMLResponse indented for reading (one element per line, attributes kept in
 * order), so the workbench's editor can fold it by element. For display only: what goes to the
 * token service is always the base64 exactly as captured, since indenting would break the
 * signature.
 */
import type { Element, Node } from '@xmldom/xmldom';
import { escapeXml, parseUntrustedXml } from '../saml/xml.js';

const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function prettyXml(xml: string, indent = '  '): string {
  const doc = parseUntrustedXml(xml);
  const lines: string[] = [];
  const walk = (node: Node, depth: number) => {
    const pad = indent.repeat(depth);
    if (node.nodeType === 8) {
      lines.push(`${pad}<!--${node.nodeValue ?? ''}-->`);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const attrs = Array.from({ length: el.attributes.length }, (_, i) => el.attributes.item(i)!)
      .map((a) => ` ${a.name}="${escapeXml(a.value)}"`)
      .join('');
    const kids: Node[] = [];
    let onlyText = true;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 || c.nodeType === 4) {
        if ((c.nodeValue ?? '').trim() !== '') kids.push(c);
      } else if (c.nodeType === 1 || c.nodeType === 8) {
        kids.push(c);
        onlyText = false;
      }
    }
    if (kids.length === 0) lines.push(`${pad}<${el.tagName}${attrs}/>`);
    else if (onlyText) lines.push(`${pad}<${el.tagName}${attrs}>${text(kids.map((k) => k.nodeValue ?? '').join('').trim())}</${el.tagName}>`);
    else {
      lines.push(`${pad}<${el.tagName}${attrs}>`);
      for (const k of kids) {
        if (k.nodeType === 3 || k.nodeType === 4) lines.push(`${pad}${indent}${text((k.nodeValue ?? '').trim())}`);
        else walk(k, depth + 1);
      }
      lines.push(`${pad}</${el.tagName}>`);
    }
  };
  walk(doc.documentElement!, 0);
  return lines.join('\n') + '\n';
}
