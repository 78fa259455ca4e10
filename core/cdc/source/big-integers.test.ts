/**
 * BIGINT values beyond 2^53 leave the embedded source exact: SQLite's INTEGER holds 64 bits, and
 * every path out (SELECT, the change log's row images, before and after a restart, the
 * connector's snapshot scan) gives such an integer as a bigint and every other integer as a
 * number. A double would round 4611686018427387907 to 4611686018427388000.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const BIG = 4611686018427387907n;
const MIN = -9223372036854775808n;
const MAX = 9223372036854775807n;

const fresh = freshSourceForEachTest({
  database: 'big',
  setup: `CREATE DATABASE big; USE big; CREATE TABLE t (id INT PRIMARY KEY, v BIGINT, note VARCHAR(10));
    INSERT INTO t VALUES (1, ${BIG - 1n}, 'below'), (2, ${BIG}, 'big'), (3, ${BIG + 1n}, 'above'), (4, ${MIN}, 'min'), (5, ${MAX}, 'max'), (6, 42, 'small')`,
});

const imagesSince = (from: { file: string; pos: number }) => fresh.src.readTransactions(from, 100).flatMap((tx) => tx.events.map((e) => ({ op: e.op, before: e.before, after: e.after })));

describe('BIGINT values beyond 2^53', () => {
  it('SELECT gives them as exact bigints, and every other integer as a number', () => {
    expect(fresh.rows('SELECT id, v FROM t ORDER BY id')).toEqual([
      [1, BIG - 1n],
      [2, BIG],
      [3, BIG + 1n],
      [4, MIN],
      [5, MAX],
      [6, 42],
    ]);
    expect(typeof fresh.rows('SELECT v FROM t WHERE id = 6')[0]![0]).toBe('number');
    // literals and arithmetic on them too, as SQLite computes them in 64 bits
    expect(fresh.rows(`SELECT ${BIG}, v + 1, -v, 9007199254740993 FROM t WHERE id = 2`)).toEqual([[BIG, BIG + 1n, -BIG, 9007199254740993n]]);
  });

  it('WHERE, UPDATE and DELETE on a big value reach exactly its row, not its neighbours a double cannot tell apart', () => {
    expect(fresh.rows(`SELECT id FROM t WHERE v = ${BIG}`)).toEqual([[2]]);
    expect(fresh.rows(`SELECT id FROM t WHERE v > ${BIG} ORDER BY id`)).toEqual([[3], [5]]);
    expect(fresh.rows(`SELECT id FROM t WHERE v IN (${BIG}, ${MIN}) ORDER BY id`)).toEqual([[2], [4]]);
    expect(fresh.rows(`SELECT id FROM t WHERE v BETWEEN ${BIG} AND ${BIG}`)).toEqual([[2]]);
    expect(fresh.run(`UPDATE t SET note = 'hit' WHERE v = ${BIG}`)[0]!.affectedRows).toBe(1);
    expect(fresh.run(`DELETE FROM t WHERE v = ${BIG + 1n}`)[0]!.affectedRows).toBe(1);
    expect(fresh.rows('SELECT id, note FROM t ORDER BY id')).toEqual([[1, 'below'], [2, 'hit'], [4, 'min'], [5, 'max'], [6, 'small']]);
  });

  it("the change log's row images carry them exactly, read live and again from the file after a restart", async () => {
    const from = fresh.src.position();
    fresh.run(`INSERT INTO t VALUES (7, ${BIG + 2n}, 'new')`);
    fresh.run(`UPDATE t SET v = ${MAX - 1n} WHERE v = ${BIG + 2n}`);
    fresh.run(`DELETE FROM t WHERE v = ${MAX - 1n}`);
    const expected = [
      { op: 'c', before: null, after: { id: 7, v: BIG + 2n, note: 'new' } },
      { op: 'u', before: { id: 7, v: BIG + 2n, note: 'new' }, after: { id: 7, v: MAX - 1n, note: 'new' } },
      { op: 'd', before: { id: 7, v: MAX - 1n, note: 'new' }, after: null },
    ];
    expect(imagesSince(from)).toEqual(expected);
    await fresh.restart();
    expect(imagesSince(from)).toEqual(expected);
    // the log alone rebuilds the rows exactly
    await fresh.restart(true);
    expect(fresh.rows('SELECT id, v FROM t WHERE id <= 5 ORDER BY id')).toEqual([
      [1, BIG - 1n],
      [2, BIG],
      [3, BIG + 1n],
      [4, MIN],
      [5, MAX],
    ]);
  });

  it("the connector's snapshot scan reads them exactly", () => {
    expect(fresh.src.scan('big', 't', 0, 10).map((r) => r.row.v)).toEqual([BIG - 1n, BIG, BIG + 1n, MIN, MAX, 42]);
  });

  it('an AUTO_INCREMENT BIGINT key near 2^63 is logged, and replayed from the log, with its exact value and rowid', async () => {
    fresh.run(`CREATE TABLE a (id BIGINT AUTO_INCREMENT PRIMARY KEY, n INT); INSERT INTO a VALUES (${MAX - 2n}, 1)`);
    const from = fresh.src.position();
    fresh.run('INSERT INTO a (n) VALUES (2)');
    fresh.run(`UPDATE a SET n = 3 WHERE id = ${MAX - 1n}`);
    const [insert, update] = fresh.src.readTransactions(from, 10).map((tx) => tx.events[0]!);
    expect(insert).toMatchObject({ op: 'c', rowid: MAX - 1n, after: { id: MAX - 1n, n: 2 } });
    expect(update).toMatchObject({ op: 'u', rowid: MAX - 1n, after: { id: MAX - 1n, n: 3 } });
    await fresh.restart(true);
    expect(fresh.rows('SELECT id, n FROM a ORDER BY id')).toEqual([
      [MAX - 2n, 1],
      [MAX - 1n, 3],
    ]);
    // the last value the type holds, then InnoDB's counter has run out (MySQL 8.0: ER_AUTOINC_READ_FAILED)
    fresh.run('INSERT INTO a (n) VALUES (4)');
    expect(fresh.rows('SELECT id FROM a WHERE n = 4')).toEqual([[MAX]]);
    expect(fresh.errorOf('INSERT INTO a (n) VALUES (5)')).toBe('ERROR 1467 (HY000): Failed to read auto-increment value from storage engine');
  });

  it('INSERT … SELECT and CREATE TABLE … SELECT copy them exactly', () => {
    fresh.run('CREATE TABLE c (id INT PRIMARY KEY, v BIGINT); INSERT INTO c SELECT id, v FROM t');
    expect(fresh.rows('SELECT id, v FROM c ORDER BY id')).toEqual(fresh.rows('SELECT id, v FROM t ORDER BY id'));
    fresh.run('CREATE TABLE d AS SELECT id, v FROM t');
    expect(fresh.rows('SELECT id, v FROM d ORDER BY id')).toEqual(fresh.rows('SELECT id, v FROM t ORDER BY id'));
  });

  it('a BIGINT DEFAULT beyond 2^53 is stored exactly', () => {
    fresh.run(`CREATE TABLE dflt (id INT PRIMARY KEY, v BIGINT DEFAULT ${BIG}); INSERT INTO dflt (id) VALUES (1)`);
    expect(fresh.rows('SELECT v FROM dflt')).toEqual([[BIG]]);
  });
});

describe('BIGINT values beyond 2^53 written from expressions', () => {
  it('UPDATE … SET v = v + 1 and v = other column store the exact INTEGER', () => {
    fresh.run(`UPDATE t SET v = v + 1 WHERE id = 2`);
    expect(fresh.rows('SELECT v FROM t WHERE id = 2')).toEqual([[BIG + 1n]]);
    fresh.run(`UPDATE t SET v = -v WHERE id = 1`);
    expect(fresh.rows('SELECT v FROM t WHERE id = 1')).toEqual([[-(BIG - 1n)]]);
    // CAST to SIGNED or UNSIGNED of such an INTEGER is the INTEGER
    expect(fresh.rows('SELECT CAST(v AS SIGNED), CAST(v AS UNSIGNED), CAST(v + 0 AS SIGNED) FROM t WHERE id = 3')).toEqual([[BIG + 1n, BIG + 1n, BIG + 1n]]);
    // out of range still as MySQL says it
    expect(fresh.errorOf('UPDATE t SET v = v + 1 WHERE id = 5')).toMatch(/^ERROR (1264|1690)/);
  });
});

describe('BIGINT values beyond 2^53 in user variables', () => {
  it('SET @v and SELECT … INTO @v keep them exact, and a WHERE on the variable finds exactly its row', () => {
    expect(fresh.run(`SET @x = ${BIG}; SELECT @x, @x = ${BIG}, @x = ${BIG + 1n}`).at(-1)!.rows).toEqual([[BIG, 1, 0]]);
    expect(fresh.run(`SELECT v INTO @y FROM t WHERE id = 3; SELECT @y; SELECT id FROM t WHERE v = @y`).slice(1).map((r) => r.rows)).toEqual([[[BIG + 1n]], [[3]]]);
    expect(fresh.run(`SET @z = ${MAX}; PREPARE p FROM 'SELECT id FROM t WHERE v = ?'; EXECUTE p USING @z`).at(-1)!.rows).toEqual([[5]]);
  });
});

describe('BIGINT values beyond 2^53 in SUM, AVG and DIV, which are computed in JavaScript', () => {
  it("SUM and AVG of them are MySQL's exact DECIMALs, past 2^63 too (SQLite's SUM fails there with integer overflow)", () => {
    expect(fresh.rows('SELECT SUM(v), AVG(v) FROM t WHERE id IN (1, 6)')).toEqual([['4611686018427387948', '2305843009213693974.0000']]);
    // 3 · 4611686018427387907 = 13835058055282163721, beyond BIGINT: MySQL's SUM is a DECIMAL(41,0)
    expect(fresh.rows('SELECT SUM(v), AVG(v) FROM t WHERE id <= 3')).toEqual([[String(3n * BIG), `${BIG}.0000`]]);
    expect(fresh.rows('SELECT SUM(v), AVG(v) FROM t')).toEqual([['13835058055282163762', '2305843009213693960.3333']]);
    expect(fresh.rows('SELECT SUM(DISTINCT v), AVG(DISTINCT v) FROM t WHERE id IN (2, 3)')).toEqual([[String(2n * BIG + 1n), `${BIG}.5000`]]);
    expect(fresh.rows('SELECT SUM(v) FROM t WHERE id > 100')).toEqual([[null]]);
  });

  it('SUM with GROUP BY, and SUM of an expression of them, are exact', () => {
    expect(fresh.rows('SELECT id, SUM(v), AVG(v) FROM t WHERE id IN (2, 5, 6) GROUP BY id ORDER BY id')).toEqual([
      [2, String(BIG), `${BIG}.0000`],
      [5, String(MAX), `${MAX}.0000`],
      [6, '42', '42.0000'],
    ]);
    expect(fresh.rows('SELECT SUM(v - 1), SUM(v + id), AVG(v + 0) FROM t WHERE id <= 3')).toEqual([[String(3n * BIG - 3n), String(3n * BIG + 6n), `${BIG}.0000`]]);
  });

  it('HAVING and ORDER BY compare such a SUM or AVG as a number (text sorts after every number in SQLite), and the select list still shows it exact', () => {
    // groups: id 4 (-2^63), id 1 + 2 (2 · BIG - 1), id 5 + 3 (past 2^63), id 6 (42)
    const grouped = (tail: string) => fresh.rows(`SELECT CASE WHEN id IN (1, 2) THEN 1 WHEN id IN (3, 5) THEN 3 ELSE id END AS g, SUM(v) AS s, AVG(v) AS a FROM t GROUP BY g ${tail}`);
    const low = [4, String(MIN), `${MIN}.0000`];
    const pair = [1, String(2n * BIG - 1n), `${BIG - 1n}.5000`];
    const past = [3, String(MAX + BIG + 1n), `${(MAX + BIG + 1n) / 2n}.5000`]; // an odd sum
    const small = [6, '42', '42.0000'];
    expect(grouped('HAVING s < 0')).toEqual([low]);
    expect(grouped('HAVING s > 1000 ORDER BY s')).toEqual([pair, past]);
    expect(grouped('HAVING a > 3000000000000000000 AND a < 4000000000000000000')).toEqual([]);
    expect(grouped('ORDER BY s DESC')).toEqual([past, pair, small, low]);
    expect(grouped('ORDER BY a')).toEqual([low, small, pair, past]);
  });

  it('DIV, MOD and ROUND of them give the exact BIGINT, in the select list and in WHERE; CONCAT, GREATEST and LEAST see their exact value', () => {
    expect(fresh.rows('SELECT v DIV 1, v DIV 2, -v DIV 1, v MOD 10, ROUND(v, -1) FROM t WHERE id = 2')).toEqual([[BIG, BIG / 2n, -BIG, 7, 4611686018427387910n]]);
    expect(fresh.rows('SELECT v DIV 1, v DIV 3 FROM t WHERE id IN (4, 5, 6) ORDER BY id')).toEqual([
      [MIN, MIN / 3n],
      [MAX, MAX / 3n],
      [42, 14],
    ]);
    expect(fresh.rows(`SELECT id FROM t WHERE v DIV 1 = ${BIG}`)).toEqual([[2]]);
    expect(fresh.rows('SELECT CONCAT(v, \'\'), CONCAT(note, \':\', v), GREATEST(v, 1, id), LEAST(v, 0) FROM t WHERE id IN (2, 4) ORDER BY id')).toEqual([
      [String(BIG), `big:${BIG}`, BIG, 0],
      [String(MIN), `min:${MIN}`, 4, MIN],
    ]);
    expect(fresh.rows('SELECT id, v DIV 1 AS q FROM t WHERE id <= 3 ORDER BY q DESC')).toEqual([
      [3, BIG + 1n],
      [2, BIG],
      [1, BIG - 1n],
    ]);
  });

  it('a BIGINT UNSIGNED holds up to 2^63 − 1; above, where SQLite’s signed INTEGER would turn it into a double, the write is refused with 1235, nothing stored', () => {
    fresh.run('CREATE TABLE u (id INT PRIMARY KEY, v BIGINT UNSIGNED)');
    fresh.run(`INSERT INTO u VALUES (1, ${MAX})`);
    const refused = "ERROR 1235 (42000): This version of MySQL doesn't yet support 'BIGINT UNSIGNED values above 9223372036854775807 in the embedded source'";
    expect(fresh.errorOf('INSERT INTO u VALUES (2, 18446744073709551615)')).toBe(refused);
    expect(fresh.errorOf(`INSERT IGNORE INTO u VALUES (2, '${MAX + 1n}')`)).toBe(refused);
    expect(fresh.errorOf('UPDATE u SET v = v + 1')).toBe(refused);
    expect(fresh.rows('SELECT * FROM u')).toEqual([[1, MAX]]);
  });
});
