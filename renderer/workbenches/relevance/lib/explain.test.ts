import { describe, expect, it } from 'vitest';
import { alignByClause, formulaOf, highlightRuns, parseFailure, summaryLine, termShares, valueAt, whyAbove, type Ex } from './explain.js';

const leaf = (value: number, description: string): Ex => ({ value, description, details: [] });
// The BM25 tree the embedded engine returns for "login failed" on "failed login login again"
// (4 documents), and Elasticsearch 7's documented example (n=1, N=5, dl=3, avgdl=5.4 → 1.6943597).
const weight = (term: string, value: number, freq: number, n: number, idf: number, tf: number, dl = 4): Ex => ({
  value,
  description: `weight(message:${term} in 2) [PerFieldSimilarity], result of:`,
  details: [
    {
      value,
      description: `score(freq=${freq}.0), computed as boost * idf * tf from:`,
      details: [
        leaf(2.2, 'boost'),
        { value: idf, description: 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', details: [leaf(n, 'n, number of documents containing term'), leaf(4, 'N, total number of documents with field')] },
        {
          value: tf,
          description: 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
          details: [leaf(freq, 'freq, occurrences of term within document'), leaf(1.2, 'k1, term saturation parameter'), leaf(0.75, 'b, length normalization parameter'), leaf(dl, 'dl, length of field'), leaf(3, 'avgdl, average length of field')],
        },
      ],
    },
  ],
});
const login = weight('login', 0.44839138, 2, 3, 0.35667494, 0.5714286);
const failed = weight('failed', 0.60996956, 1, 2, 0.6931472, 0.40000004);
const doc2: Ex = { value: 1.0583609, description: 'sum of:', details: [login, failed] };

describe('reading an explanation', () => {
  it('puts the numbers into the BM25 idf, tf and score formulas', () => {
    expect(formulaOf(login.details[0]!.details[1]!)).toBe('idf = ln(1 + (N − n + 0.5) / (n + 0.5)) = ln(1 + (4 − 3 + 0.5) / (3 + 0.5)) = 0.357');
    expect(formulaOf(login.details[0]!.details[2]!)).toBe('tf = freq / (freq + k1 · (1 − b + b · dl / avgdl)) = 2 / (2 + 1.2 · (1 − 0.75 + 0.75 · 4 / 3)) = 0.571');
    expect(formulaOf(login.details[0]!)).toBe('score = boost · idf · tf = 2.2 · 0.357 · 0.571 = 0.448');
    const es7: Ex = { value: 1.6943597, description: 'score(freq=1.0), computed as boost * idf * tf from:', details: [leaf(2.2, 'boost'), leaf(1.3862944, 'idf, computed as …'), leaf(0.5555555, 'tf, computed as …')] };
    expect(formulaOf(es7)).toBe('score = boost · idf · tf = 2.2 · 1.386 · 0.556 = 1.694');
  });

  it('puts the numbers into the classic TF/IDF formulas', () => {
    expect(formulaOf({ value: 1.4142135, description: 'tf(freq=2.0), with freq of:', details: [leaf(2, 'termFreq=2.0')] })).toBe('tf = √freq = √2 = 1.414');
    expect(formulaOf(leaf(1.287682, 'idf(docFreq=2, maxDocs=4)'))).toBe('idf = 1 + ln(maxDocs / (docFreq + 1)) = 1 + ln(4 / (2 + 1)) = 1.288');
    expect(formulaOf({ value: 0.643841, description: 'fieldWeight in 2, product of:', details: [leaf(1, 'tf(freq=1.0), with freq of:'), leaf(1.287682, 'idf(docFreq=2, maxDocs=4)'), leaf(0.5, 'fieldNorm(doc=2)')] })).toBe(
      'fieldWeight = tf · idf · fieldNorm = 1 · 1.288 · 0.5 = 0.644',
    );
  });

  it('says which term gives how much of the score', () => {
    expect(termShares(doc2).map((s) => [s.term, Math.round(s.share * 100)])).toEqual([
      ['failed', 58],
      ['login', 42],
    ]);
    expect(summaryLine(doc2)).toBe('`failed` gives 58 % of the score, `login` 42 %');
  });

  it('highlights the matched terms in the text, whatever their case', () => {
    expect(highlightRuns('Failed LOGIN, login again', new Set(['login', 'failed']))).toEqual([
      { text: 'Failed', hit: true },
      { text: ' ', hit: false },
      { text: 'LOGIN', hit: true },
      { text: ', ', hit: false },
      { text: 'login', hit: true },
      { text: ' again', hit: false },
    ]);
  });

  it('names the field and range of a failed filter, and finds the value in the document', () => {
    expect(parseFailure('failure to match filter: http.response.bytes:[1000 TO *]')).toEqual({ description: 'failure to match filter: http.response.bytes:[1000 TO *]', kind: 'filter', clauses: [{ field: 'http.response.bytes', expr: '[1000 TO *]' }] });
    expect(parseFailure('no match on required clause (message:logins)').clauses).toEqual([{ field: 'message', expr: 'logins' }]);
    expect(valueAt({ http: { response: { bytes: 512 } } }, 'http.response.bytes')).toBe(512);
    expect(valueAt({ 'http.response': { bytes: 7 } }, 'http.response.bytes')).toBe(7);
    expect(valueAt({ message: 'x' }, 'message.keyword')).toBe('x');
  });

  it('aligns two hits by clause and says why one ranks above the other', () => {
    const other: Ex = { value: 0.7, description: 'sum of:', details: [weight('login', 0.7, 1, 3, 0.35667494, 0.3, 9)] };
    const rows = alignByClause(doc2, other);
    expect(rows.map((r) => [r.term, Number(r.diff.toFixed(3))])).toEqual([
      ['failed', 0.61],
      ['login', -0.252],
    ]);
    expect(whyAbove('2', doc2, '5', other)).toBe('2 ranks above 5 by 0.358 (1.058 against 0.7) because only it matches `failed` (+0.61), although 5\'s `login` scores 0.252 more (1 occurrence against 2, a longer field (9 terms against 4)).');
  });
});
