/**
 * MySQL's JSON functions on the embedded source, against the examples of the MySQL 8.0 Reference
 * Manual ("Functions That Create JSON Values", "Functions That Search JSON Values").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';

let src: EmbeddedSource;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-json-'));
  src = await EmbeddedSource.open({ dir });
});
afterAll(async () => {
  await src.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const one = (sql: string) => src.executeSync('demo', sql)[0]!.rows[0]![0];

describe("MySQL's JSON functions", () => {
  it('build JSON text as MySQL writes it: spaced, keys shorter first, nested values as JSON', () => {
    expect(one("SELECT JSON_OBJECT('id', 87, 'name', 'carrot')")).toBe('{"id": 87, "name": "carrot"}');
    expect(one("SELECT JSON_ARRAY(1, 'abc', NULL)")).toBe('[1, "abc", null]');
    expect(one("SELECT JSON_OBJECT('name', 'x', 'id', 1, 'tags', JSON_ARRAY('a', 'b'))")).toBe('{"id": 1, "name": "x", "tags": ["a", "b"]}');
  });

  it('extract as MySQL does: JSON values, several paths and wildcards as an array, ->> unquoted', () => {
    expect(one("SELECT JSON_EXTRACT('[10, 20, [30, 40]]', '$[1]')")).toBe('20');
    expect(one("SELECT JSON_EXTRACT('[10, 20, [30, 40]]', '$[1]', '$[0]')")).toBe('[20, 10]');
    expect(one("SELECT JSON_EXTRACT('[10, 20, [30, 40]]', '$[2][*]')")).toBe('[30, 40]');
    expect(one('SELECT JSON_EXTRACT(\'{"a": {"b": "x"}}\', \'$.a\')')).toBe('{"b": "x"}');
    expect(one("SELECT JSON_UNQUOTE('\"abc\"')")).toBe('abc');
    src.executeSync('demo', 'CREATE TABLE jt (id INT PRIMARY KEY, doc JSON); INSERT INTO jt VALUES (1, \'{"name": "Ada", "langs": ["en", "fr"]}\')');
    expect(src.executeSync('demo', "SELECT doc->'$.name', doc->>'$.name', jt.doc->'$.langs[1]' FROM jt")[0]!.rows[0]).toEqual(['"Ada"', 'Ada', '"fr"']);
  });
});
