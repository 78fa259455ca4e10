import { describe, expect, it } from 'vitest';
import { stringifyExactJson } from '../../../../common/exact-json.js';
import { isVerbatimRow, rowJson } from './convert.js';

describe('rowJson: the JSONEachRow text of a row, bigints as their digits', () => {
  const rows: unknown[] = [
    { created_at: 1_700_000_000_123, id: 7, name: 'Ada "L" \\ é\n', __deleted: 'false' },
    { id: 1, gone: undefined, f: () => 1, at: new Date(0), nested: { a: [1, null, 'x'] }, nan: NaN, '__proto__': 1, '2': 'index key', 'é"': true },
    {},
    [1, 'a', null],
    'text',
    5,
    null,
  ];

  it('writes what JSON.stringify writes for every row without a bigint', () => {
    for (const row of rows) expect(rowJson(row)).toBe(JSON.stringify(row));
    const withProto = JSON.parse('{"__proto__":{"x":1},"id":1}') as unknown;
    expect(rowJson(withProto)).toBe(JSON.stringify(withProto));
  });

  it('writes an Int64/UInt64 bigint as its digits, the other fields as JSON.stringify does', () => {
    const row = { created_at: 1_700_000_000_123, id: 4611686018427387907n, u: 18446744073709551615n, neg: -9223372036854775808n, gone: undefined, name: 'Ada "L"', at: new Date(0), nested: { a: [1, null] } };
    expect(rowJson(row)).toBe('{"created_at":1700000000123,"id":4611686018427387907,"u":18446744073709551615,"neg":-9223372036854775808,"name":"Ada \\"L\\"","at":"1970-01-01T00:00:00.000Z","nested":{"a":[1,null]}}');
    expect(rowJson(row)).toBe(stringifyExactJson(row));
    expect(rowJson({ only: 1n << 62n })).toBe('{"only":4611686018427387904}');
    // a bigint deeper in (an Array(Int64) column) goes through stringifyExactJson whole
    expect(rowJson({ ids: [4611686018427387907n, 1] })).toBe('{"ids":[4611686018427387907,1]}');
  });
});

describe('isVerbatimRow: whether the JSON a row was parsed from can be sent instead of rowJson(row)', () => {
  const verbatim = (text: string) => isVerbatimRow(JSON.parse(text) as Record<string, unknown>, text);

  it('takes a one-line object of strings, booleans and integers spelled as JSON.stringify spells them', () => {
    expect(verbatim('{"created_at":1764141234000,"id":1000001,"name":"c1000001-1","__deleted":"false"}')).toBe(true);
    expect(verbatim('{ "id" : -7 , "ok" : true, "s": "\\u00c9\\n\\"" }')).toBe(true);
    expect(verbatim('{}')).toBe(true);
    expect(isVerbatimRow({ id: 4611686018427387907n }, '{"id":4611686018427387907}')).toBe(true);
  });

  it('refuses a text JSON.stringify would write differently, or that ClickHouse would read differently', () => {
    for (const text of [
      '{"id":1,"id":2}', // a key twice
      '{"t":"12:30","id":1}', // a colon inside a string could hide a key given twice
      '{"id":1.0}',
      '{"id":1e3}',
      '{"id":10E-1}',
      '{"x":1.5}',
      '{"x":-0}',
      '{"x":null}',
      '{"x":{"y":1}}',
      '{"x":[1]}',
      '{"x":1,\n"y":2}',
    ]) expect(verbatim(text), text).toBe(false);
  });
});
