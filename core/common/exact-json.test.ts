import { describe, expect, it } from 'vitest';
import { exactNumber, mayHoldUnsafeInteger, narrowInteger, parseExactJson, stringifyExactJson } from './exact-json.js';

describe('exact JSON', () => {
  it('keeps integers beyond 2^53 as bigints and everything else as JSON.parse reads it', () => {
    const text = '{"id":4611686018427387907,"min":-9223372036854775808,"max":18446744073709551615,"safe":9007199254740991,"f":1.25,"s":"12345678901234567890","e":1e3}';
    expect(parseExactJson(text)).toEqual({ id: 4611686018427387907n, min: -9223372036854775808n, max: 18446744073709551615n, safe: 9007199254740991, f: 1.25, s: '12345678901234567890', e: 1000 });
    expect(JSON.parse(text).id).toBe(4611686018427388000); // what the built-in parser makes of it
  });
  it('round-trips the digits', () => {
    const text = '{"a":[1,-9223372036854775807,{"b":12345678901234567}],"c":null,"d":"x\\u0000y"}';
    expect(stringifyExactJson(parseExactJson(text))).toBe(text);
  });
  it('writes what JSON.stringify writes when there is no bigint', () => {
    const v = { d: new Date(0), u: undefined, n: null, arr: [undefined, 1.5], nan: NaN };
    expect(stringifyExactJson(v)).toBe(JSON.stringify(v));
    expect(stringifyExactJson({ ...v, big: 2n ** 63n })).toBe(JSON.stringify(v).slice(0, -1) + ',"big":9223372036854775808}');
  });
  it('reports bad JSON with the built-in parser\'s message', () => {
    expect(() => parseExactJson('{"a":12345678901234567,')).toThrow(/JSON/);
    expect(() => parseExactJson('{"a":12345678901234567,')).toThrow(SyntaxError);
  });
  it('finds every text with an integer beyond 2^53 without a full scan: JSON.parse keeps the others, MicroTimestamps (16 digits) included', () => {
    for (let pad = 0; pad < 40; pad++) {
      const lead = `{"${'x'.repeat(pad)}":`;
      expect(mayHoldUnsafeInteger(`${lead}9007199254740992}`), `pad ${pad}`).toBe(true);
      expect(mayHoldUnsafeInteger(`${lead}-12345678901234567890}`), `pad ${pad}`).toBe(true);
      expect(mayHoldUnsafeInteger(`${lead}9007199254740991}`), `pad ${pad}`).toBe(false);
      expect(mayHoldUnsafeInteger(`${lead}1704164645000123,"y":1704164645000}`), `pad ${pad}`).toBe(false);
    }
    expect(mayHoldUnsafeInteger('12345678901234567')).toBe(true);
    // doubles as SQLite's JSON writes them: JSON.parse reads them as well
    for (const d of ['0.33333333333333332', '9007199254740994.0', '-12345678901234567e3', '1.2345678901234567E+20']) expect(mayHoldUnsafeInteger(`{"d":${d}}`), d).toBe(false);
    expect(parseExactJson('{"d":0.33333333333333332,"e":9007199254740994.0}')).toEqual({ d: 1 / 3, e: 9007199254740994 });
    expect(parseExactJson('{"us":1704164645000123}')).toEqual({ us: 1704164645000123 });
  });
  it('numbers and narrowing', () => {
    expect(exactNumber('9007199254740993')).toBe(9007199254740993n);
    expect(exactNumber('9007199254740991')).toBe(9007199254740991);
    expect(exactNumber('1.5e300')).toBe(1.5e300);
    expect(narrowInteger(5n)).toBe(5);
    expect(narrowInteger(-(2n ** 60n))).toBe(-(2n ** 60n));
  });
});
