/**
 * UPDATE and DELETE with table aliases and of several tables, as MySQL 8.0 runs them. The row
 * events and affected rows of the shared forms are also checked against MariaDB's binary log in
 * multi-table-dml-vs-mariadb.test.ts; the expectations here come from the MySQL 8.0 manual
 * (UPDATE, DELETE statements) and its error message reference (ER_WRONG_USAGE 1221,
 * ER_UNKNOWN_TABLE 1109, ER_NON_UNIQ_ERROR 1052, ER_BAD_FIELD_ERROR 1054), as noted beside each.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';
import type { EmbeddedSource } from './embedded-source.js';

const fresh = freshSourceForEachTest({
  database: 'm',
  setup: `CREATE DATABASE m; USE m;
     CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(10), n INT);
     CREATE TABLE o (oid INT PRIMARY KEY, cid INT, x VARCHAR(3) DEFAULT 'dd', d DECIMAL(5,2));
     INSERT INTO c VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0);
     INSERT INTO o VALUES (10, 1, 'p', 1), (11, 1, 'q', 1), (12, 2, 'r', 1)`,
});

const { run, rows, errorOf } = fresh;
/** The row events of the transactions written since `from`: `op table key`. */
function eventsSince(from: ReturnType<EmbeddedSource['position']>): string[] {
  return fresh.src.readTransactions(from, 100).flatMap((tx) => tx.events.map((e) => `${e.op} ${e.table} ${String((e.before ?? e.after)!['id'] ?? (e.before ?? e.after)!['oid'])}`));
}

describe('a table alias in a single-table UPDATE or DELETE', () => {
  it('UPDATE t AS a SET a.col = … changes the row and logs one update', () => {
    const from = fresh.src.position();
    expect(run("UPDATE c AS k SET k.name = 'x' WHERE k.id = 1")[0]!.affectedRows).toBe(1);
    expect(rows('SELECT name FROM c WHERE id = 1')).toEqual([['x']]);
    expect(eventsSince(from)).toEqual(['u c 1']);
  });

  it('the alias without AS, with ORDER BY and LIMIT', () => {
    expect(run('UPDATE c k SET k.n = 5 ORDER BY k.id LIMIT 2')[0]!.affectedRows).toBe(2);
    expect(rows('SELECT id FROM c WHERE n = 5 ORDER BY id')).toEqual([[1], [2]]);
  });

  it('the table name as a qualifier', () => {
    run("UPDATE c SET c.name = 'y' WHERE c.id = 2");
    expect(rows('SELECT name FROM c WHERE id = 2')).toEqual([['y']]);
  });

  it('DELETE FROM t AS a (MySQL 8.0.16 and later, manual: DELETE statement)', () => {
    const from = fresh.src.position();
    expect(run('DELETE FROM c AS k WHERE k.id = 3')[0]!.affectedRows).toBe(1);
    expect(eventsSince(from)).toEqual(['d c 3']);
  });

  it('the values an aliased UPDATE sets are stored as the column stores them (strict mode)', () => {
    run('UPDATE o AS a SET a.d = 2.555 WHERE a.oid = 10');
    expect(rows('SELECT d FROM o WHERE oid = 10')).toEqual([['2.56']]);
    // ER_DATA_TOO_LONG, as for the unaliased UPDATE
    expect(errorOf("UPDATE o AS a SET a.x = 'long' WHERE a.oid = 10")).toBe("ERROR 1406 (22001): Data too long for column 'x' at row 1");
  });
});

describe('UPDATE of several tables', () => {
  it('changes each table, table by table, and counts the changed rows of all of them', () => {
    const from = fresh.src.position();
    const [r] = run("UPDATE c JOIN o ON o.cid = c.id SET c.name = CONCAT(c.name, o.x), o.x = 'z' WHERE c.id <= 2");
    // c 1 matches twice (o 10 and 11): changed once, with its first match's values
    expect(r!.affectedRows).toBe(5);
    expect(rows('SELECT id, name FROM c ORDER BY id')).toEqual([[1, 'ap'], [2, 'br'], [3, 'c']]);
    expect(rows('SELECT oid, x FROM o ORDER BY oid')).toEqual([[10, 'z'], [11, 'z'], [12, 'z']]);
    expect(eventsSince(from)).toEqual(['u c 1', 'u c 2', 'u o 10', 'u o 11', 'u o 12']);
    expect(fresh.src.readTransactions(from, 10)).toHaveLength(1);
  });

  it('SET col = DEFAULT and stored values apply to each table’s columns', () => {
    run('UPDATE c, o SET o.x = DEFAULT, o.d = c.id + 0.125 WHERE o.cid = c.id AND c.id = 2');
    expect(rows('SELECT x, d FROM o WHERE oid = 12')).toEqual([['dd', '2.13']]);
  });

  it('a value a column refuses fails the whole statement: nothing changed, nothing logged', () => {
    const from = fresh.src.position();
    expect(errorOf("UPDATE c JOIN o ON o.cid = c.id SET c.name = 'ok', o.x = CONCAT('long', o.oid)")).toBe("ERROR 1406 (22001): Data too long for column 'x' at row 1");
    expect(rows('SELECT name FROM c ORDER BY id')).toEqual([['a'], ['b'], ['c']]);
    expect(fresh.src.readTransactions(from, 10)).toEqual([]);
  });

  it('refuses ORDER BY and LIMIT (ER_WRONG_USAGE 1221)', () => {
    expect(errorOf('UPDATE c JOIN o ON o.cid = c.id SET c.n = 1 ORDER BY c.id')).toBe('ERROR 1221 (HY000): Incorrect usage of UPDATE and ORDER BY');
    expect(errorOf('UPDATE c, o SET c.n = 1 LIMIT 1')).toBe('ERROR 1221 (HY000): Incorrect usage of UPDATE and LIMIT');
  });

  it('names an unknown or ambiguous column as MySQL does (1054, 1052)', () => {
    expect(errorOf('UPDATE c JOIN o ON o.cid = c.id SET c.nope = 1')).toBe("ERROR 1054 (42S22): Unknown column 'c.nope' in 'field list'");
    run('ALTER TABLE o ADD COLUMN n INT');
    expect(errorOf('UPDATE c JOIN o ON o.cid = c.id SET n = 1')).toBe("ERROR 1052 (23000): Column 'n' in field list is ambiguous");
  });

  it('in a transaction, rolled back with it', () => {
    run("BEGIN; UPDATE c JOIN o ON o.cid = c.id SET c.name = 'tx', o.x = 'tx'; ROLLBACK");
    expect(rows('SELECT count(*) FROM c WHERE name = "tx"')).toEqual([[0]]);
  });
});

describe('DELETE of several tables', () => {
  it('DELETE a, b FROM … JOIN … deletes the matched rows of both, table by table', () => {
    const from = fresh.src.position();
    expect(run('DELETE k, o FROM c AS k JOIN o ON o.cid = k.id WHERE k.id = 1')[0]!.affectedRows).toBe(3);
    expect(eventsSince(from)).toEqual(['d c 1', 'd o 10', 'd o 11']);
  });

  it('DELETE FROM a USING … and DELETE a.* FROM …', () => {
    expect(run('DELETE FROM o USING o LEFT JOIN c ON c.id = o.cid AND c.id = 2 WHERE c.id IS NULL')[0]!.affectedRows).toBe(2);
    expect(run('DELETE c.* FROM c, o WHERE o.cid = c.id')[0]!.affectedRows).toBe(1);
    expect(rows('SELECT id FROM c ORDER BY id')).toEqual([[1], [3]]);
  });

  it('the single-table form of the multi-table syntax', () => {
    run('DELETE k FROM c k WHERE k.id = 3');
    expect(rows('SELECT count(*) FROM c')).toEqual([[2]]);
  });

  it('a target that is not in the join, and ORDER BY/LIMIT, are refused (1109, 1221)', () => {
    // with an alias, the table is named by its alias only
    expect(errorOf('DELETE c FROM c AS k WHERE k.id = 1')).toBe("ERROR 1109 (42S02): Unknown table 'c' in MULTI DELETE");
    expect(errorOf('DELETE c FROM c JOIN o ON o.cid = c.id LIMIT 1')).toBe('ERROR 1221 (HY000): Incorrect usage of DELETE and LIMIT');
  });
});

it('a value whose case alone changes is a changed row with a row event (MySQL compares the bytes)', () => {
  const from = fresh.src.position();
  expect(run("UPDATE c SET name = 'A' WHERE id = 1")[0]!.affectedRows).toBe(1);
  expect(eventsSince(from)).toEqual(['u c 1']);
});

it('the state after multi-table statements comes back after a restart', async () => {
  run("UPDATE c JOIN o ON o.cid = c.id SET c.n = c.n + o.oid, o.x = 'y'; DELETE c, o FROM c JOIN o ON o.cid = c.id WHERE c.id = 2");
  const dump = 'SELECT * FROM c ORDER BY id; SELECT * FROM o ORDER BY oid';
  const before = run(dump).map((r) => r.rows);
  await fresh.restart();
  expect(run(dump).map((r) => r.rows)).toEqual(before);
});
