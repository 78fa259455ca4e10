/**
 * Bounds on untrusted XML checked before any parser sees it: one linear pass over the text
 * counting elements and nesting depth, so a document of tens of thousands of empty elements
 * (cheap to send, costly to build a DOM of and canonicalize) is refused for the price of a scan.
 * SAML messages are small: an AWS Response with a hundred roles has a few hundred elements.
 */

export interface XmlBounds {
  maxElements: number;
  maxDepth: number;
}

export const SAML_BOUNDS: XmlBounds = { maxElements: 2000, maxDepth: 40 };

export class XmlBoundsError extends Error {}

/** Throws XmlBoundsError when `xml` has more elements or deeper nesting than allowed. */
export function checkXmlBounds(xml: string, bounds: XmlBounds = SAML_BOUNDS): void {
  let elements = 0;
  let depth = 0;
  let i = xml.indexOf('<');
  while (i >= 0 && i < xml.length) {
    const next = xml.charCodeAt(i + 1);
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      i = end < 0 ? -1 : xml.indexOf('<', end + 3);
      continue;
    }
    if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i + 9);
      i = end < 0 ? -1 : xml.indexOf('<', end + 3);
      continue;
    }
    if (next === 0x3f /* ? */ || next === 0x21 /* ! */) {
      const end = xml.indexOf('>', i + 2);
      i = end < 0 ? -1 : xml.indexOf('<', end + 1);
      continue;
    }
    // End of this tag, skipping quoted attribute values (they may hold '>').
    let j = i + 1;
    let quote = 0;
    for (; j < xml.length; j++) {
      const c = xml.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) break;
    }
    if (next === 0x2f /* / */) depth--;
    else {
      elements++;
      if (xml.charCodeAt(j - 1) !== 0x2f) depth++;
      if (elements > bounds.maxElements) throw new XmlBoundsError(`the document has more than ${bounds.maxElements} elements`);
      if (depth > bounds.maxDepth) throw new XmlBoundsError(`the document nests elements more than ${bounds.maxDepth} deep`);
    }
    i = xml.indexOf('<', j + 1);
  }
}
