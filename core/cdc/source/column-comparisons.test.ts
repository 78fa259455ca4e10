import { describe, expect, it } from 'vitest';
import { comparedColumnsIn, compareAsMySql, stringNumber } from './column-comparisons.js';
import { parseCreateTable } from './mysql-ddl.js';

const tables = new Map(
  ['CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(10), price DECIMAL(10,2), `unit cost` NUMERIC(8,3))', 'CREATE TABLE q (id INT, price VARCHAR(5), qty DECIMAL(5,0))', 'CREATE TABLE e (id INT, d DATE, ts DATETIME, tm TIME, ts3 DATETIME(3))', "CREATE TABLE k (id INT, st ENUM('new','it''s','a\\\\b'), n VARCHAR(5))"].map((sql) => {
    const { def } = parseCreateTable(sql);
    return [def.name, def];
  }),
);
const rewrite = (sql: string) => compareAsMySql(sql, comparedColumnsIn(sql, tables)!) ?? sql;

describe('DECIMAL columns read as numbers where they are compared', () => {
  it('finds the DECIMAL, date/time and text columns of the tables a statement names, not a name two of them use for different types', () => {
    const decimal = (scale: number) => ({ kind: 'decimal', scale });
    const text = { kind: 'string' };
    const number = { kind: 'number' };
    expect(comparedColumnsIn('SELECT * FROM p', tables)).toEqual(new Map([['id', number], ['name', text], ['price', decimal(2)], ['unit cost', decimal(3)]]));
    expect(comparedColumnsIn('SELECT * FROM p JOIN q ON q.id = p.id', tables)).toEqual(new Map([['id', number], ['name', text], ['unit cost', decimal(3)], ['qty', decimal(0)]]));
    expect(comparedColumnsIn('SELECT * FROM pq', tables)).toBeUndefined();
  });

  it('rewrites the operands of comparisons, BETWEEN and IN', () => {
    expect(rewrite('SELECT * FROM p WHERE price < 100 AND 5 <= p.price')).toBe('SELECT * FROM p WHERE CAST(price AS NUMERIC) < 100 AND 5 <= CAST(p.price AS NUMERIC)');
    expect(rewrite('DELETE FROM p WHERE `unit cost` BETWEEN 1 AND 2 OR price NOT IN (1.5, 2)')).toBe('DELETE FROM p WHERE CAST(`unit cost` AS NUMERIC) BETWEEN 1 AND 2 OR CAST(price AS NUMERIC) NOT IN (1.5, 2)');
    expect(rewrite("SELECT price >= 50, price <=> NULL FROM p WHERE name = 'price < 1'")).toBe("SELECT CAST(price AS NUMERIC) >= 50, CAST(price AS NUMERIC) <=> NULL FROM p WHERE name = 'price < 1'");
  });

  it('leaves the select list, functions on text, INSERT columns and assignments as the stored text', () => {
    for (const sql of ["SELECT price, CONCAT(name, price) FROM p", 'INSERT INTO p (id, price) VALUES (1, 2)', "UPDATE p SET price = price * 2, name = price WHERE id = 1"]) expect(rewrite(sql)).toBe(sql);
    expect(rewrite('UPDATE p SET price = 1, name = (price > 3) WHERE price = 2')).toBe('UPDATE p SET price = 1, name = (CAST(price AS NUMERIC) > 3) WHERE CAST(price AS NUMERIC) = 2');
    expect(rewrite('INSERT INTO p (id, price) VALUES (1, 2) ON CONFLICT DO UPDATE SET price = excluded."price"')).toBe('INSERT INTO p (id, price) VALUES (1, 2) ON CONFLICT DO UPDATE SET price = excluded."price"');
  });

  it('sorts by number, and ranks with MIN, MAX, GREATEST and LEAST in the column’s scale', () => {
    expect(rewrite('SELECT id FROM p ORDER BY price DESC, name, p.`unit cost` LIMIT 2')).toBe('SELECT id FROM p ORDER BY CAST(price AS NUMERIC) DESC, name, CAST(p.`unit cost` AS NUMERIC) LIMIT 2');
    expect(rewrite('SELECT MAX(price), min( p.price ), MAX(price) OVER () FROM p')).toBe('SELECT loupe_decimal(MAX(CAST(price AS NUMERIC)), 2), loupe_decimal(min(CAST(p.price AS NUMERIC)), 2), MAX(CAST(price AS NUMERIC)) OVER () FROM p');
    expect(rewrite('UPDATE p SET price = GREATEST(price, 50), name = LEAST(1, `unit cost`)')).toBe('UPDATE p SET price = GREATEST(CAST(price AS NUMERIC), 50), name = LEAST(1, CAST(`unit cost` AS NUMERIC))');
  });

  it('writes the literals compared with a date or time as the column stores them, as MySQL converts them', () => {
    expect(rewrite("SELECT * FROM e WHERE ts = '2024-02-03 10:00' OR d = 20240203 OR tm < '7' OR '2024-2-3' <= d")).toBe(
      "SELECT * FROM e WHERE ts = '2024-02-03 10:00:00' OR d = '2024-02-03' OR tm < '00:00:07' OR '2024-02-03' <= d",
    );
    expect(rewrite("DELETE FROM e WHERE ts BETWEEN '2024-1-1' AND '2024-1-31' AND tm NOT IN ('10:00', 7) AND d < '2024-02-03 12:00'")).toBe(
      "DELETE FROM e WHERE ts BETWEEN '2024-01-01 00:00:00' AND '2024-01-31 00:00:00' AND tm NOT IN ('10:00:00', '00:00:07') AND d < '2024-02-03 12:00:00'",
    );
  });

  it('leaves alone a literal the type does not read, one with fractional seconds, one inside an expression, and assignments', () => {
    for (const sql of ["SELECT * FROM e WHERE ts = 'soon' OR ts3 = '2024-02-03 10:00:00.5' OR ts > '2024-01-01' + INTERVAL 1 DAY", "UPDATE e SET ts = '2024-2-3' WHERE id = 1"]) expect(rewrite(sql)).toBe(sql);
  });

  it('reads a string compared with a number as a number, failing a write on one that is none', () => {
    expect(rewrite('SELECT * FROM p WHERE name > 5 OR 1 = name OR name IN (1, 2) OR name BETWEEN 1 AND 2e1')).toBe(
      'SELECT * FROM p WHERE loupe_string_number(name, 0) > 5 OR 1 = loupe_string_number(name, 0) OR loupe_string_number(name, 0) IN (1, 2) OR loupe_string_number(name, 0) BETWEEN 1 AND 2e1',
    );
    expect(rewrite('DELETE FROM p WHERE name = 0')).toBe('DELETE FROM p WHERE loupe_string_number(name, 1) = 0');
    expect(rewrite('UPDATE OR IGNORE p SET id = 1 WHERE name < 3')).toBe('UPDATE OR IGNORE p SET id = 1 WHERE loupe_string_number(name, 0) < 3');
    for (const sql of ["SELECT * FROM p WHERE name = '5' OR name IN ('1', 'a') OR name = id"]) expect(rewrite(sql)).toBe(sql);
    expect([stringNumber(' 12 ', 1), stringNumber('1e1', 1), stringNumber('3x', 0), stringNumber('abc', 0), stringNumber(null, 1)]).toEqual([12, 10, 3, 0, null]);
    expect(() => stringNumber('3x', 1)).toThrow("ERROR1292:Truncated incorrect DOUBLE value: '3x'");
  });

  it('gives a number compared with text that is no number the number of the text, and in a write a check that refuses it for each row compared', () => {
    expect(rewrite("SELECT * FROM p WHERE id < ' x ' OR 'abc' = id OR id IN ('2', '3z') OR price = 'zz'")).toBe("SELECT * FROM p WHERE id < 0 OR 0 = id OR id IN ('2', 3) OR CAST(price AS NUMERIC) = 0");
    expect(rewrite("DELETE FROM p WHERE id = 'abc'")).toBe("DELETE FROM p WHERE id = loupe_string_number('abc', 1)");
    expect(compareAsMySql("DELETE FROM p WHERE id = 'abc'", comparedColumnsIn('FROM p', tables)!, true)).toBe('DELETE FROM p WHERE id = 0');
  });

  it('in a write, reads text in arithmetic as MySQL does and refuses a literal that is no number; a SELECT is left to SQLite', () => {
    expect(rewrite('UPDATE p SET id = name * 2 WHERE id = 1')).toBe('UPDATE p SET id = loupe_string_number(name, 1) * 2 WHERE id = 1');
    expect(rewrite('UPDATE p SET id = -name WHERE id = 1')).toBe('UPDATE p SET id = -loupe_string_number(name, 1) WHERE id = 1');
    expect(rewrite("UPDATE p SET id = id - '2024-02-03' WHERE id = 1")).toBe("UPDATE p SET id = id - loupe_string_number('2024-02-03', 1) WHERE id = 1");
    for (const sql of ["UPDATE p SET name = CONCAT(name, '-x'), id = id - '5' WHERE id = 1", 'SELECT name * 2 FROM p WHERE id = 1']) expect(rewrite(sql)).toBe(sql);
  });

  it('compares a string with a list of numbers and text item by item, in order, each as = would', () => {
    expect(rewrite("SELECT * FROM p WHERE name IN (1, 'a') OR p.name NOT IN ('b', NULL, -2.5e1)")).toBe(
      "SELECT * FROM p WHERE (loupe_string_number(name, 0) = 1 OR name = 'a') OR (NOT (p.name = 'b' OR NULL OR loupe_string_number(p.name, 0) = -2.5e1))",
    );
    expect(rewrite("UPDATE p SET id = 1 WHERE name IN ('a', 1)")).toBe("UPDATE p SET id = 1 WHERE (name = 'a' OR loupe_string_number(name, 1) = 1)");
    expect(rewrite("DELETE FROM p WHERE name IN (1, 'a')")).toBe("DELETE FROM p WHERE (loupe_string_number(name, 1) = 1 OR name = 'a')");
    expect(compareAsMySql("DELETE FROM p WHERE name IN (1, 'a')", comparedColumnsIn('FROM p', tables)!, true)).toBe("DELETE FROM p WHERE (loupe_string_number(name, 0) = 1 OR name = 'a')");
    // a list of one kind, or with any other item, keeps its single comparison
    for (const sql of ["SELECT * FROM p WHERE name IN ('a', NULL) OR name IN ('a', id) OR name IN ('a', 1 + 1)"]) expect(rewrite(sql)).toBe(sql);
  });
});

describe('ENUM columns compared with numbers and sorted by index', () => {
  const index = (ref: string) => `CASE ${ref} WHEN 'new' THEN 1 WHEN 'it''s' THEN 2 WHEN CAST(X'615c62' AS TEXT) THEN 3 WHEN '' THEN 0 END`;

  it('reads the column as its index where compared with a number', () => {
    expect(comparedColumnsIn('SELECT * FROM k', tables)?.get('st')).toEqual({ kind: 'enum', members: ['new', "it's", 'a\\b'] });
    expect(rewrite('SELECT * FROM k WHERE st = 2 OR 1 < k.st OR st IN (1, 3) OR st BETWEEN 1 AND 2')).toBe(
      `SELECT * FROM k WHERE ${index('st')} = 2 OR 1 < ${index('k.st')} OR ${index('st')} IN (1, 3) OR ${index('st')} BETWEEN 1 AND 2`,
    );
    expect(rewrite("DELETE FROM k WHERE st NOT IN ('new', 2)")).toBe(`DELETE FROM k WHERE (NOT (st = 'new' OR ${index('st')} = 2))`);
  });

  it('leaves comparisons with text, assignments and MIN/MAX as the member text', () => {
    for (const sql of ["SELECT MIN(st) FROM k WHERE st = 'new' OR st IN ('2', 'x') OR st > n", "UPDATE k SET st = 2 WHERE id = 1"]) expect(rewrite(sql)).toBe(sql);
  });

  it('sorts by index, except in a compound SELECT, whose column is no ENUM', () => {
    expect(rewrite('SELECT id FROM k ORDER BY st DESC, id')).toBe(`SELECT id FROM k ORDER BY ${index('st')} DESC, id`);
    expect(rewrite('UPDATE k SET id = 1 ORDER BY `st` LIMIT 1')).toBe(`UPDATE k SET id = 1 ORDER BY ${index('`st`')} LIMIT 1`);
    for (const sql of ['SELECT st FROM k UNION SELECT st FROM k ORDER BY st']) expect(rewrite(sql)).toBe(sql);
  });
});
