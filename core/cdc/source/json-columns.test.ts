/**
 * JSON columns and functions as MySQL 8.0 answers, where MariaDB (json-functions-vs-mariadb.test.ts)
 * cannot say: MariaDB's JSON is LONGTEXT with a CHECK, keeps the text as written and orders keys as
 * given. A JSON column stores its value as MySQL's JSON text, refuses text that is no JSON (3140),
 * and the functions raise MySQL's errors.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'js', setup: "CREATE DATABASE js; USE js; CREATE TABLE j (id INT PRIMARY KEY, doc JSON); INSERT INTO j VALUES (1, '{\"b\":1,  \"a\": [1,2.50], \"cc\": {\"y\": null, \"x\": true}}'), (2, NULL)" });
const { rows, errorOf } = fresh;

describe('JSON columns', () => {
  it('store MySQL’s JSON text, whatever text was written', () => {
    expect(rows('SELECT doc FROM j WHERE id = 1')).toEqual([['{"a": [1, 2.5], "b": 1, "cc": {"x": true, "y": null}}']]);
    expect(rows("SELECT JSON_KEYS(doc), doc->'$.a[1]', doc->>'$.cc.x' FROM j WHERE id = 1")).toEqual([['["a", "b", "cc"]', '2.5', 'true']]);
  });

  it('refuse text that is no JSON, and a number, as MySQL does (3140), writing nothing', () => {
    expect(errorOf("INSERT INTO j VALUES (3, '{\"a\":1,}')")).toBe(`ERROR 3140 (22032): Invalid JSON text: "Missing a name for object member." at position 7 in value for column 'j.doc'.`);
    expect(errorOf('INSERT INTO j VALUES (3, 5)')).toBe(`ERROR 3140 (22032): Invalid JSON text: "not a JSON text, may need CAST" at position 0 in value for column 'j.doc'.`);
    expect(errorOf("UPDATE j SET doc = 'nope' WHERE id = 2")).toBe(`ERROR 3140 (22032): Invalid JSON text: "Invalid value." at position 0 in value for column 'j.doc'.`);
    expect(rows('SELECT id, doc IS NULL FROM j ORDER BY id')).toEqual([[1, 0], [2, 1]]);
  });

  it('take the functions’ JSON: JSON_SET, JSON_ARRAY_APPEND, JSON_MERGE_PATCH, JSON_REMOVE', () => {
    fresh.run("UPDATE j SET doc = JSON_SET(doc, '$.b', 2, '$.n', 'new') WHERE id = 1");
    fresh.run("UPDATE j SET doc = JSON_ARRAY_APPEND(doc, '$.a', 3) WHERE id = 1");
    fresh.run("UPDATE j SET doc = JSON_REMOVE(JSON_MERGE_PATCH(doc, '{\"cc\": null, \"z\": [0]}'), '$.n') WHERE id = 1");
    expect(rows('SELECT doc FROM j WHERE id = 1')).toEqual([['{"a": [1, 2.5, 3], "b": 2, "z": [0]}']]);
  });

  it('the functions’ errors are MySQL’s', () => {
    expect(errorOf("SELECT JSON_TYPE('bad')")).toBe('ERROR 3141 (22032): Invalid JSON text in argument 1 to function json_type: "Invalid value." at position 0.');
    expect(errorOf("SELECT JSON_SET('{}', '$.a[*]', 1)")).toBe('ERROR 3149 (42000): In this situation, path expressions may not contain the * and ** tokens or an array range.');
    expect(errorOf("SELECT JSON_REMOVE('{}', '$')")).toBe("ERROR 3153 (42000): The path expression '$' is not allowed in this context.");
    expect(errorOf("SELECT JSON_EXTRACT('{}', 'a')")).toBe('ERROR 3143 (42000): Invalid JSON path expression. The error is around character position 1.');
    expect(errorOf("SELECT JSON_SET('{}', '$.b')")).toBe("ERROR 1582 (42000): Incorrect parameter count in the call to native function 'json_set'");
    // MariaDB answers NULL to these three
    expect(errorOf(`SELECT JSON_SEARCH('["a"]', 'two', 'a')`)).toBe("ERROR 3150 (42000): The oneOrAll argument to json_search may take these values: 'one' or 'all'.");
    expect(errorOf(`SELECT JSON_ARRAY_INSERT('["a"]', '$.a', 'x')`)).toBe('ERROR 3165 (42000): A path expression is not a path to a cell in an array.');
    expect(errorOf(`SELECT JSON_CONTAINS_PATH('{}', 'some', '$')`)).toBe("ERROR 3150 (42000): The oneOrAll argument to json_contains_path may take these values: 'one' or 'all'.");
  });

  it('JSON_CONTAINS at a path the document lacks is NULL (MySQL 8.0 manual; MariaDB says 0)', () => {
    expect(rows("SELECT JSON_CONTAINS(doc, '1', '$.zz') FROM j WHERE id = 1")).toEqual([[null]]);
  });

  it('JSON_SEARCH writes a path’s member name that is no identifier quoted, as MySQL does', () => {
    expect(rows(`SELECT JSON_SEARCH('{"a b": "x%y", "c": ["x%y"]}', 'all', 'x|%y', '|')`)).toEqual([['["$.c[0]", "$.\\"a b\\""]']]);
  });

  it('MEMBER OF, JSON_OVERLAPS, JSON_PRETTY and JSON_QUOTE', () => {
    expect(rows("SELECT 2 MEMBER OF('[1, 2, 3]'), 'q' MEMBER OF('[\"q\"]'), 5 MEMBER OF('[1]'), JSON_OVERLAPS('[1,2]', '[2,3]'), JSON_QUOTE('a\"b')")).toEqual([[1, 1, 0, 1, '"a\\"b"']]);
    expect(rows(`SELECT JSON_PRETTY('{"b": [1, {"c": []}], "a": {}}')`)).toEqual([['{\n  "a": {},\n  "b": [\n    1,\n    {\n      "c": []\n    }\n  ]\n}']]);
  });
});
