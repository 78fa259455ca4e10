import { describe, it, expect } from 'vitest';
import { checkXmlBounds, XmlBoundsError } from './xml-bounds.js';

describe('checkXmlBounds', () => {
  it('counts elements and depth, skipping comments, CDATA, declarations and quoted ">"', () => {
    expect(() => checkXmlBounds('<?xml version="1.0"?><a x="1>2"><!-- <b><b><b> --><b/><c><![CDATA[<d><d>]]></c></a>', { maxElements: 3, maxDepth: 2 })).not.toThrow();
    expect(() => checkXmlBounds('<a><b/><c/><d/></a>', { maxElements: 3, maxDepth: 5 })).toThrow(XmlBoundsError);
    expect(() => checkXmlBounds('<a><b><c></c></b></a>', { maxElements: 10, maxDepth: 2 })).toThrow(/more than 2 deep/);
  });

  it('refuses 19,000 empty elements in a 95 KB document at once', () => {
    const xml = `<r>${'<e/>'.repeat(19_000)}</r>`;
    expect(() => checkXmlBounds(xml)).toThrow('the document has more than 2000 elements');
  });
});
