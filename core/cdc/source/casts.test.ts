/**
 * CAST(x AS DECIMAL(M,D)) and CONVERT(x, DECIMAL(M,D)) as MySQL converts (Item_typecast_decimal),
 * checked against MariaDB 10.11, which answers the same: rounded half away from zero to D
 * decimals, the largest value of its sign past M digits (1264 naming the CAST), text read as far as
 * it is a number (1292, a note when only blanks follow), shown with D decimals, and compared and
 * stored as the number it is. Before, the value went through unchanged (CAST('1.25' AS
 * DECIMAL(4,1)) was 1.25, CAST(1000 AS DECIMAL(4,1)) 1000). CAST to SIGNED/UNSIGNED warns as
 * MySQL does of a string that is not all an integer, and ISNULL(x) is MySQL's function.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

describe('CAST to DECIMAL and to SIGNED, and ISNULL', () => {
  const fresh = freshSourceForEachTest({ database: 'cd', setup: 'CREATE DATABASE cd; CREATE TABLE cd.t (id INT PRIMARY KEY, x DOUBLE, p DECIMAL(6,3))' });
  const conditions = (sql: string) => (fresh.run(sql).at(-1)!.warnings?.conditions ?? []).map((c) => `${c.level} ${c.code} ${c.message}`);

  it('rounds half away from zero to D decimals and shows them', () => {
    expect(fresh.rows("SELECT CAST(1.005 AS DECIMAL(4,2)), CAST(-1.005 AS DECIMAL(4,2)), CAST(1.005e0 AS DECIMAL(4,2)), CAST(2.5 AS DECIMAL), CONVERT('3.14159', DECIMAL(10,3)), CAST('-0.004' AS DECIMAL(4,2)) AS z")).toEqual([
      ['1.01', '-1.01', '1.01', '3', '3.142', '0.00'],
    ]);
    expect(fresh.rows('SELECT CAST(1e25 AS DECIMAL(30,2)), CAST(0.000001 AS DECIMAL(10,8)), CAST(NULL AS DECIMAL(3,1)), CAST(5 AS DECIMAL(3))')).toEqual([['10000000000000000000000000.00', '0.00000100', null, '5']]);
  });

  it('clips past M digits with 1264, and reads text as far as it is a number with 1292', () => {
    expect(fresh.rows('SELECT CAST(1000 AS DECIMAL(4,1)), CAST(-1000 AS DECIMAL(4,1))')).toEqual([['999.9', '-999.9']]);
    expect(conditions('SELECT CAST(1000 AS DECIMAL(4,1)), CAST(12345678901.4 AS DECIMAL)')).toEqual([
      "Warning 1264 Out of range value for column 'CAST(1000 AS DECIMAL(4,1))' at row 1",
      "Warning 1264 Out of range value for column 'CAST(12345678901.4 AS DECIMAL)' at row 1",
    ]);
    expect(fresh.rows("SELECT CAST('abc' AS DECIMAL(5,2)), CAST('12.345xyz' AS DECIMAL(5,2)), CAST(' 7.5 ' AS DECIMAL(5,2))")).toEqual([['0.00', '12.35', '7.50']]);
    expect(conditions("SELECT CAST('abc' AS DECIMAL(5,2)), CAST(' 7.5 ' AS DECIMAL(5,2))")).toEqual(["Warning 1292 Truncated incorrect DECIMAL value: 'abc'", "Note 1292 Truncated incorrect DECIMAL value: ' 7.5 '"]);
  });

  it('CAST to SIGNED warns of a string that is not all an integer (1292; a note when only blanks follow), as MariaDB 10.11 and MySQL 8.0 do', () => {
    expect(fresh.rows("SELECT CAST('42abc' AS SIGNED), CAST(' 7 ' AS SIGNED), CAST('x' AS UNSIGNED), CAST('9.5' AS SIGNED), CAST('12' AS SIGNED)")).toEqual([[42, 7, 0, 9, 12]]);
    expect(conditions("SELECT CAST('42abc' AS SIGNED), CAST(' 7 ' AS SIGNED), CAST('x' AS UNSIGNED), CAST('12' AS SIGNED)")).toEqual([
      "Warning 1292 Truncated incorrect INTEGER value: '42abc'",
      "Note 1292 Truncated incorrect INTEGER value: ' 7 '",
      "Warning 1292 Truncated incorrect INTEGER value: 'x'",
    ]);
  });

  it('ISNULL(x) is MySQL’s function (SQLite reads ISNULL as its postfix operator: a syntax error before)', () => {
    fresh.run("INSERT INTO t VALUES (1, 1.5, NULL), (2, NULL, 2)");
    expect(fresh.rows('SELECT id, ISNULL(x), isnull(p) + 1, NOT ISNULL(x) FROM t WHERE ISNULL(p) OR id = 2 ORDER BY id')).toEqual([[1, 0, 2, 1], [2, 1, 1, 0]]);
  });

  it('compares, sorts and is stored as the number it is', () => {
    fresh.run("INSERT INTO t VALUES (1, CAST('1.25' AS DECIMAL(4,1)), CAST(2.00049 AS DECIMAL(8,3))), (2, 0.5, 10)");
    expect(fresh.rows('SELECT id, x, p FROM t ORDER BY id')).toEqual([[1, 1.3, '2.000'], [2, 0.5, '10.000']]);
    expect(fresh.rows('SELECT id FROM t WHERE CAST(x AS DECIMAL(3,1)) > 1 ORDER BY CAST(p AS DECIMAL(5,1)) DESC')).toEqual([[1]]);
  });
});
