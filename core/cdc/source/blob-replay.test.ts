/**
 * Binary columns (BLOB, VARBINARY, GEOMETRY) through the change log: a row image holds a BLOB as
 * its hex and a NULL one as NULL, and rebuilding the databases from the change log alone puts
 * the same bytes back.
 */
import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const fresh = freshSourceForEachTest({ database: 'bin', setup: 'CREATE DATABASE bin; USE bin; CREATE TABLE b (id INT PRIMARY KEY, v VARBINARY(8), l BLOB, g GEOMETRY, p POINT)' });
const dump = 'SELECT id, HEX(v), HEX(l), ST_AsText(g), ST_AsText(p), v IS NULL, l IS NULL FROM b ORDER BY id';

describe('binary columns in the change log', () => {
  it('log a NULL as NULL and bytes as hex, and come back whole from the change log alone', async () => {
    const from = fresh.src.position();
    fresh.run("INSERT INTO b VALUES (1, X'00ff10', 'text', ST_GeomFromText('LINESTRING(2 1, 6 6)'), POINT(1, 2)), (2, NULL, NULL, NULL, NULL), (3, X'', X'', NULL, NULL)");
    fresh.run("UPDATE b SET v = X'ab', g = ST_GeomFromText('POINT(3 4)') WHERE id = 2");
    const images = fresh.src.readTransactions(from, 10).flatMap((tx) => tx.events.map((e) => [e.op, e.after?.v, e.after?.l]));
    expect(images).toEqual([['c', '00FF10', '74657874'], ['c', null, null], ['c', '', ''], ['u', 'AB', null]]);
    const before = fresh.rows(dump);
    expect(before).toEqual([
      [1, '00FF10', '74657874', 'LINESTRING(2 1,6 6)', 'POINT(1 2)', 0, 0],
      [2, 'AB', null, 'POINT(3 4)', null, 0, 1],
      [3, '', '', null, null, 0, 0],
    ]);
    await fresh.restart(true);
    expect(fresh.rows(dump)).toEqual(before);
  });
});
