/**
 * JSON values read and written as MySQL 8.0 does (mysql-json.ts): RapidJSON's messages and
 * positions for text that is no JSON, integers kept apart from doubles, MySQL's text, and the
 * binlog's text as Debezium's streaming events carry it (mysql-binlog-connector's
 * JsonStringFormatter).
 */
import { describe, expect, it } from 'vitest';
import { binlogJsonText, JsonDouble, mysqlJsonText, parseMySqlJson } from './mysql-json.js';

const errorOf = (text: string) => {
  try {
    parseMySqlJson(text);
    return 'no error';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('MySQL JSON', () => {
  it('refuses text that is no JSON with RapidJSON’s reason and position, as MySQL reports them', () => {
    expect(errorOf('')).toBe('"The document is empty." at position 0');
    expect(errorOf('not json')).toBe('"Invalid value." at position 0');
    expect(errorOf('{"a" 1}')).toBe('"Missing a colon after a name of object member." at position 5');
    expect(errorOf('{"a":1,}')).toBe('"Missing a name for object member." at position 7');
    expect(errorOf('{"a":1 "b":2}')).toBe(`"Missing a comma or '}' after an object member." at position 7`);
    expect(errorOf('[1,]')).toBe('"Invalid value." at position 3');
    expect(errorOf('[1 2]')).toBe(`"Missing a comma or ']' after an array element." at position 3`);
    expect(errorOf('[1] 2')).toBe('"The document root must not be followed by other values." at position 4');
    expect(errorOf('"abc')).toBe('"Missing a closing quotation mark in string." at position 4');
    expect(errorOf('"a\\x"')).toBe('"Invalid escape character in string." at position 2');
  });

  it('keeps integers (to 64 bits) apart from doubles, and lets the last of a duplicate key win', () => {
    expect(parseMySqlJson('[1, 1.0, 1e2, 9223372036854775807, 18446744073709551615]')).toEqual([1, new JsonDouble(1), new JsonDouble(100), 9223372036854775807n, 18446744073709551615n]);
    expect(parseMySqlJson('{"a": 1, "a": 2}')).toEqual({ a: 2 });
  });

  it('writes MySQL’s text: a space after colons and commas, keys shorter first then by bytes, doubles with a fraction', () => {
    expect(mysqlJsonText(parseMySqlJson('{"bb":1,"a":[1,2.0,1e2,0.5],"c":{"y":null,"x":true},"é":"q"}'))).toBe('{"a": [1, 2.0, 100.0, 0.5], "c": {"x": true, "y": null}, "bb": 1, "é": "q"}');
  });

  it('writes the binlog’s text as JsonStringFormatter does: no spaces, doubles as Java’s Double.toString, plain where Java would use an exponent', () => {
    const v = parseMySqlJson('{"bb":1,"a":[1,2.0,1e2,0.5,1.5e7,12345678901234567890],"s":"t\\tq\\u0001\\"/"}');
    expect(binlogJsonText(v)).toBe('{"a":[1,2.0,100.0,0.5,15000000,12345678901234567890],"s":"t\\tq\\u0001\\"/","bb":1}');
  });
});
