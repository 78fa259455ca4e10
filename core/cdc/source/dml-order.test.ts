/**
 * UPDATE/DELETE … ORDER BY on the embedded source: the rows change one at a time in that order,
 * and the statement is still all or nothing (the order of the row events against MariaDB's is in
 * dml-order-vs-mariadb.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'ord', setup: "CREATE DATABASE ord; USE ord; CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10)); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')" });
const { run, rows, errorOf } = fresh;
const events = (from: ReturnType<typeof fresh.src.position>) => fresh.src.readTransactions(from, 10).flatMap((tx) => tx.events.map((e) => [e.op, e.before?.id ?? null, e.after?.id ?? null]));

describe('UPDATE and DELETE with ORDER BY', () => {
  it('moves the ids up largest first, where the same statement in key order breaks the key', () => {
    expect(errorOf('UPDATE t SET id = id + 1 ORDER BY id')).toBe("ERROR 1062 (23000): Duplicate entry '2' for key 't.PRIMARY'");
    const from = fresh.src.position();
    expect(run('UPDATE t SET id = id + 1 ORDER BY id DESC')[0]!.affectedRows).toBe(3);
    expect(events(from)).toEqual([['u', 3, 4], ['u', 2, 3], ['u', 1, 2]]);
    expect(rows('SELECT id, name FROM t ORDER BY id')).toEqual([[2, 'a'], [3, 'b'], [4, 'c']]);
  });

  it('changes nothing when a row in the middle fails, and logs nothing', () => {
    run("INSERT INTO t VALUES (5, 'e')");
    const from = fresh.src.position();
    // in key order the first row already collides: 1 → 2 while 2 is still there
    expect(errorOf('UPDATE t SET id = id + 1 WHERE id < 5 ORDER BY id')).toBe("ERROR 1062 (23000): Duplicate entry '2' for key 't.PRIMARY'");
    expect(events(from)).toEqual([]);
    expect(rows('SELECT id FROM t ORDER BY id')).toEqual([[1], [2], [3], [5]]);
  });

  it('counts only the rows it changed, and keeps the order inside a transaction', () => {
    const from = fresh.src.position();
    expect(run("UPDATE t SET name = 'b' ORDER BY id DESC")[0]!.affectedRows).toBe(2);
    run('BEGIN; DELETE FROM t ORDER BY id DESC LIMIT 2; COMMIT');
    expect(events(from)).toEqual([['u', 3, 3], ['u', 1, 1], ['d', 3, null], ['d', 2, null]]);
    expect(rows('SELECT id, name FROM t')).toEqual([[1, 'b']]);
  });
});
