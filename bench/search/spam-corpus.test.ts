import { describe, expect, it } from 'vitest';
import { loadSpamCorpus, parseMail, spamQueries } from './spam-corpus.js';

describe('the SpamAssassin corpus', () => {
  const docs = loadSpamCorpus();

  it('has all 6,046 mails, 1,896 of them spam (500 + 1,396 per the package README)', () => {
    expect(docs).toHaveLength(6046);
    expect(docs.filter((d) => d.tag === 'spam')).toHaveLength(1896);
    expect(new Set(docs.map((d) => d.id)).size).toBe(6046);
  });

  it('draws query terms from its own words, skipping words in more than half of the mails', () => {
    const q = spamQueries(docs);
    const few = docs.slice(0, 300);
    expect(spamQueries(few, 20)).toEqual(spamQueries(few, 20));
    const df = (w: string) => docs.filter((d) => d.text.toLowerCase().includes(w)).length;
    for (const query of q.terms1.slice(0, 10)) {
      expect(query.terms[0]).toMatch(/^[a-z]{3,15}$/);
      expect(df(query.terms[0])).toBeGreaterThan(0);
    }
    expect(q.filtered.every((x) => x.tag === 'spam' && x.terms.length === 2)).toBe(true);
  });
});

describe('mail parsing', () => {
  it('takes the Subject header (folded lines joined) and the body without markup', () => {
    const raw = 'From: a@b\nSubject: Cheap\n  watches today\nTo: c@d\n\n<html><b>Buy</b> now</html>\n';
    expect(parseMail(raw)).toEqual({ subject: 'Cheap watches today', body: '  Buy  now ' });
  });

  it('copes with a mail without a body or subject', () => {
    expect(parseMail('From: a@b')).toEqual({ subject: '', body: '' });
  });
});
