import { describe, expect, it } from 'vitest';
import { getAnalyzer } from './analyzers.js';

const terms = (a: string, t: string) => getAnalyzer(a).terms(t);

describe('analyzers split text as Lucene does', () => {
  it('standard keeps dotted names, numbers and apostrophes together and lower-cases', () => {
    // Lucene StandardTokenizer (UAX#29): "index.html", "200", "can't" stay whole; "/" splits.
    expect(terms('standard', 'GET /index.html returned 200 after Login, user can\'t')).toEqual(['get', 'index.html', 'returned', '200', 'after', 'login', 'user', "can't"]);
    expect(terms('standard', 'price 1,000.50 wi-fi foo_bar')).toEqual(['price', '1,000.50', 'wi', 'fi', 'foo_bar']);
    expect(terms('standard', 'Über Straße')).toEqual(['über', 'straße']);
    expect(terms('standard', '東京 ok')).toEqual(['東', '京', 'ok']);
    expect(terms('standard', 'end.')).toEqual(['end']);
  });

  it('simple keeps letters only, whitespace keeps case, keyword keeps everything', () => {
    expect(terms('simple', 'GET /index.html 200')).toEqual(['get', 'index', 'html']);
    expect(terms('whitespace', 'GET /index.html  200')).toEqual(['GET', '/index.html', '200']);
    expect(terms('keyword', 'GET /index.html')).toEqual(['GET /index.html']);
  });

  it('reports positions, offsets and token types for _analyze', () => {
    expect(getAnalyzer('standard').tokens('Quick 42')).toEqual([
      { token: 'quick', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0 },
      { token: '42', start_offset: 6, end_offset: 8, type: '<NUM>', position: 1 },
    ]);
  });
});
