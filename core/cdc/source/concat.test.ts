import { describe, expect, it } from 'vitest';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

const { run, rows } = freshSourceForEachTest({ database: 'cc', setup: "CREATE DATABASE cc; USE cc; CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR(20), n INT); INSERT INTO t VALUES (1, NULL, 5), (2, 'a', NULL), (3, 'b', 7)" });

describe('CONCAT as MySQL has it', () => {
  it('is NULL when an argument is NULL, where CONCAT_WS skips it', () => {
    expect(rows("SELECT CONCAT('a', NULL), CONCAT('a', 1, 2.5, 'b'), CONCAT_WS(',', 'a', NULL, 'b'), CONCAT(NULL)")).toEqual([[null, 'a12.5b', 'a,b', null]]);
  });

  it('leaves a NULL column NULL in an UPDATE, and GROUP_CONCAT of several expressions skips the rows with a NULL', () => {
    run("UPDATE t SET note = CONCAT(note, '!')");
    expect(rows('SELECT id, note FROM t ORDER BY id')).toEqual([[1, null], [2, 'a!'], [3, 'b!']]);
    expect(rows("SELECT GROUP_CONCAT(note, n ORDER BY id) FROM t")).toEqual([['b!7']]);
  });
});
