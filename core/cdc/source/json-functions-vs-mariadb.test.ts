/**
 * MySQL's JSON functions beside a private MariaDB (skipped without mariadbd, failing under CI=true),
 * where the two agree: what JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_APPEND,
 * JSON_MERGE_PATCH and JSON_MERGE_PRESERVE make of a document, read through JSON_EXTRACT of scalars
 * and JSON_LENGTH (MariaDB keeps a document's text and key order as written, MySQL writes its own:
 * json-columns.test.ts holds those), and JSON_TYPE, JSON_VALID, JSON_DEPTH, JSON_LENGTH,
 * JSON_CONTAINS, JSON_CONTAINS_PATH, JSON_OVERLAPS on the same documents.
 */
import { describe } from 'vitest';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

const SETUP =
  'CREATE DATABASE jf; USE jf; CREATE TABLE j (id INT PRIMARY KEY, doc JSON); ' +
  `INSERT INTO j VALUES (1, '{"b": 1, "a": [1, 2], "c": {"x": "y", "n": [true, null]}}'), (2, '[3, "q", null, true, 2.5, {"k": 1}]'), (3, '"str"'), (4, '12'), (5, NULL)`;

const CASES: CaseBeside[] = [
  { what: 'JSON_TYPE, JSON_VALID, JSON_DEPTH and JSON_LENGTH of each kind', sql: 'SELECT id, JSON_TYPE(doc), JSON_VALID(doc), JSON_DEPTH(doc), JSON_LENGTH(doc) FROM j ORDER BY id' },
  { what: 'JSON_LENGTH at a path, and at one that is not there', sql: "SELECT JSON_LENGTH(doc, '$.a'), JSON_LENGTH(doc, '$.c'), JSON_LENGTH(doc, '$.zz') FROM j WHERE id = 1" },
  { what: 'JSON_CONTAINS of a scalar, an array and an object at a path', sql: `SELECT JSON_CONTAINS(doc, '1', '$.a'), JSON_CONTAINS(doc, '[2, 1]', '$.a'), JSON_CONTAINS(doc, '{"x": "y"}', '$.c'), JSON_CONTAINS(doc, '3', '$.a') FROM j WHERE id = 1` },
  { what: 'JSON_CONTAINS in an array', sql: `SELECT JSON_CONTAINS(doc, '{"k": 1}'), JSON_CONTAINS(doc, '2.5'), JSON_CONTAINS(doc, '["q", 3]'), JSON_CONTAINS(doc, '"x"') FROM j WHERE id = 2` },
  { what: 'JSON_CONTAINS_PATH one and all', sql: "SELECT JSON_CONTAINS_PATH(doc, 'one', '$.a', '$.zz'), JSON_CONTAINS_PATH(doc, 'all', '$.a', '$.zz'), JSON_CONTAINS_PATH(doc, 'all', '$.c.n[1]') FROM j WHERE id = 1" },
  { what: 'JSON_SET replaces a member and adds one', sql: "SELECT JSON_EXTRACT(JSON_SET(doc, '$.b', 10, '$.d', 'new', '$.c.x', 'z'), '$.b'), JSON_EXTRACT(JSON_SET(doc, '$.d', 'new'), '$.d'), JSON_LENGTH(JSON_SET(doc, '$.d', 1)) FROM j WHERE id = 1" },
  { what: 'JSON_INSERT adds only, JSON_REPLACE replaces only', sql: "SELECT JSON_EXTRACT(JSON_INSERT(doc, '$.b', 9, '$.e', 1), '$.b'), JSON_EXTRACT(JSON_INSERT(doc, '$.e', 1), '$.e'), JSON_EXTRACT(JSON_REPLACE(doc, '$.b', 5), '$.b'), JSON_LENGTH(JSON_REPLACE(doc, '$.f', 1)) FROM j WHERE id = 1" },
  { what: 'JSON_SET of a cell past the end appends, of [0] replaces', sql: "SELECT JSON_EXTRACT(JSON_SET(doc, '$[9]', 'end', '$[0]', 'first'), '$[0]'), JSON_EXTRACT(JSON_SET(doc, '$[9]', 'end'), '$[6]'), JSON_LENGTH(JSON_SET(doc, '$[9]', 'end')) FROM j WHERE id = 2" },
  { what: 'JSON_SET of [1] on a scalar wraps it in an array', sql: "SELECT JSON_LENGTH(JSON_SET(doc, '$[1]', 'x')), JSON_EXTRACT(JSON_SET(doc, '$[1]', 'x'), '$[1]') FROM j WHERE id = 3" },
  { what: 'JSON_REMOVE of members and cells', sql: "SELECT JSON_LENGTH(JSON_REMOVE(doc, '$.a', '$.c')), JSON_LENGTH(JSON_REMOVE(doc, '$.a[0]'), '$.a'), JSON_LENGTH(JSON_REMOVE(doc, '$.zz')) FROM j WHERE id = 1" },
  { what: 'JSON_ARRAY_APPEND to an array and to a scalar', sql: "SELECT JSON_LENGTH(JSON_ARRAY_APPEND(doc, '$.a', 3), '$.a'), JSON_LENGTH(JSON_ARRAY_APPEND(doc, '$.b', 'x'), '$.b'), JSON_EXTRACT(JSON_ARRAY_APPEND(doc, '$.b', 'x'), '$.b[1]') FROM j WHERE id = 1" },
  { what: 'JSON_MERGE_PATCH removes with null and merges objects', sql: `SELECT JSON_EXTRACT(JSON_MERGE_PATCH('{"a": 1, "b": 2, "o": {"p": 1}}', '{"b": null, "c": 3, "o": {"q": 2}}'), '$.a'), JSON_LENGTH(JSON_MERGE_PATCH('{"a": 1, "b": 2, "o": {"p": 1}}', '{"b": null, "c": 3, "o": {"q": 2}}')), JSON_LENGTH(JSON_MERGE_PATCH('{"a": 1, "b": 2, "o": {"p": 1}}', '{"o": {"q": 2}}'), '$.o')` },
  { what: 'JSON_MERGE_PRESERVE joins arrays and wraps scalars', sql: `SELECT JSON_LENGTH(JSON_MERGE_PRESERVE('[1, 2]', '{"a": 1}', '3')), JSON_LENGTH(JSON_MERGE_PRESERVE('{"a": 1}', '{"a": 2}'), '$.a')` },
  { what: 'JSON_OVERLAPS of arrays and of objects', sql: `SELECT JSON_OVERLAPS('[1, 2, 3]', '[3, 4]'), JSON_OVERLAPS('[1, 2]', '[5]'), JSON_OVERLAPS('{"a": 1}', '{"a": 2}'), JSON_OVERLAPS('{"a": 1, "b": 2}', '{"b": 2}')` },
  { what: 'JSON_SEARCH one and all, with wildcards and a path to start from', sql: `SELECT JSON_SEARCH('["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]', 'one', 'abc'), JSON_SEARCH('["abc", [{"k": "10"}, "def"], {"x": "abc"}, {"y": "bcd"}]', 'all', '%b%'), JSON_SEARCH('["abc", [{"k": "10"}, "def"]]', 'all', '1_'), JSON_SEARCH('["abc", {"x": "abc"}]', 'all', 'abc', NULL, '$[1]'), JSON_SEARCH('["ABC"]', 'one', 'abc'), JSON_SEARCH('["a"]', 'all', 'zz')` },
  { what: 'JSON_ARRAY_INSERT before a cell, past the end, in a nested array', sql: `SELECT JSON_ARRAY_INSERT('["a", {"b": [1, 2]}, [3, 4]]', '$[1]', 'x'), JSON_ARRAY_INSERT('["a", {"b": [1, 2]}, [3, 4]]', '$[100]', 'x'), JSON_ARRAY_INSERT('["a", {"b": [1, 2]}, [3, 4]]', '$[1].b[0]', 'x'), JSON_ARRAY_INSERT('["a", {"b": [1, 2]}, [3, 4]]', '$[0]', 'x', '$[2][1]', 'y')` },
  { what: 'JSON_QUOTE and JSON_UNQUOTE', sql: `SELECT JSON_QUOTE('a"b'), JSON_UNQUOTE('"x\\\\ty"'), JSON_UNQUOTE(JSON_EXTRACT(doc, '$.c.x')) FROM j WHERE id = 1` },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`JSON functions answer as MariaDB does${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('jsonfn', SETUP);
  casesBeside(pair, 'jf', CASES);
});
