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

  it('JSON_ARRAYAGG and JSON_OBJECTAGG as the MySQL 8.0 manual shows them: rows in order, NULL over no rows, the last value of a key', () => {
    src.executeSync('demo', "CREATE TABLE t3 (o_id INT, attribute VARCHAR(10), value VARCHAR(10)); INSERT INTO t3 VALUES (2, 'color', 'red'), (2, 'fabric', 'silk'), (3, 'color', 'green'), (3, 'shape', 'square'), (3, 'shape', NULL)");
    expect(src.executeSync('demo', 'SELECT o_id, JSON_ARRAYAGG(attribute) FROM t3 GROUP BY o_id ORDER BY o_id')[0]!.rows).toEqual([[2, '["color", "fabric"]'], [3, '["color", "shape", "shape"]']]);
    expect(src.executeSync('demo', 'SELECT o_id, JSON_OBJECTAGG(attribute, value) FROM t3 GROUP BY o_id ORDER BY o_id')[0]!.rows).toEqual([[2, '{"color": "red", "fabric": "silk"}'], [3, '{"color": "green", "shape": null}']]);
    expect(one('SELECT JSON_ARRAYAGG(o_id) FROM t3 WHERE o_id < 0')).toBeNull();
    expect(one('SELECT JSON_OBJECT(\'all\', JSON_ARRAYAGG(o_id)) FROM t3')).toBe('{"all": [2, 2, 3, 3, 3]}');
    expect(() => src.executeSync('demo', 'SELECT JSON_OBJECTAGG(NULL, 1) FROM t3')).toThrow('JSON documents may not contain NULL member names.');
  });
});
