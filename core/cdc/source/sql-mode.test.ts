/**
 * sql_mode as MySQL 8.0 reads, shows and checks it (sql-mode.ts), and what the embedded source
 * does with it: strict mode decides whether a refused value fails a write, NO_AUTO_VALUE_ON_ZERO
 * whether 0 takes the next AUTO_INCREMENT value, and a mysqldump file's SET/restore round trip.
 */
import { describe, expect, it } from 'vitest';
import { parseSqlMode } from './sql-mode.js';
import { freshSourceForEachTest } from './testing/fresh-source.test-util.js';

describe('parseSqlMode', () => {
  it('lists the modes in MySQL’s order, in upper case, with the combination modes expanded', () => {
    expect(parseSqlMode('no_engine_substitution,strict_trans_tables').value).toBe('STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION');
    expect(parseSqlMode('TRADITIONAL').value).toBe('STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION');
    expect(parseSqlMode('').value).toBe('');
    expect(parseSqlMode(',NO_AUTO_VALUE_ON_ZERO,').value).toBe('NO_AUTO_VALUE_ON_ZERO');
    // the numeric form: bit 19 is NO_AUTO_VALUE_ON_ZERO, bit 21 STRICT_TRANS_TABLES
    expect(parseSqlMode(2n ** 19n + 2n ** 21n).value).toBe('NO_AUTO_VALUE_ON_ZERO,STRICT_TRANS_TABLES');
  });

  it('refuses a name MySQL 8.0 does not have (1231), and the modes the embedded source does not follow (1235)', () => {
    expect(() => parseSqlMode('STRICT_TRANS_TABLES,BOGUS')).toThrow("Variable 'sql_mode' can't be set to the value of 'BOGUS'");
    // removed in MySQL 8.0
    expect(() => parseSqlMode('NO_AUTO_CREATE_USER')).toThrow("Variable 'sql_mode' can't be set to the value of 'NO_AUTO_CREATE_USER'");
    expect(() => parseSqlMode(null)).toThrow("Variable 'sql_mode' can't be set to the value of 'NULL'");
    expect(() => parseSqlMode('ANSI_QUOTES')).toThrow("This version of MySQL doesn't yet support 'sql_mode ANSI_QUOTES in the embedded source'");
    expect(() => parseSqlMode('ANSI')).toThrow(/sql_mode REAL_AS_FLOAT/);
  });

  it('warns (3135) when strict mode and NO_ZERO_DATE, NO_ZERO_IN_DATE, ERROR_FOR_DIVISION_BY_ZERO are not all set or all left out', () => {
    expect(parseSqlMode('ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION').mergedWarning).toBe(false);
    expect(parseSqlMode('NO_AUTO_VALUE_ON_ZERO').mergedWarning).toBe(false);
    expect(parseSqlMode('STRICT_TRANS_TABLES').mergedWarning).toBe(true);
    expect(parseSqlMode('NO_ZERO_DATE').mergedWarning).toBe(true);
  });
});

const fresh = freshSourceForEachTest({ database: 'm', setup: 'CREATE DATABASE m' });
const { run, rows, errorOf } = fresh;

describe('sql_mode in a session', () => {
  it('SET and @@sql_mode: the session’s value, DEFAULT, a variable’s value, and GLOBAL for the sessions after', () => {
    expect(rows('SELECT @@sql_mode')).toEqual([['ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION']]);
    const [set] = fresh.src.executeSync('m', "SET SESSION sql_mode = 'STRICT_ALL_TABLES'");
    expect(set!.warnings?.conditions).toEqual([{ level: 'Warning', code: 3135, message: "'NO_ZERO_DATE', 'NO_ZERO_IN_DATE' and 'ERROR_FOR_DIVISION_BY_ZERO' sql modes should be used with strict mode. They will be merged with strict mode in a future release." }]);
    // mysqldump's header and footer
    const script = fresh.src.executeSync('m', "SET sql_mode = 'STRICT_ALL_TABLES'; SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO'; SELECT @@sql_mode; SET SQL_MODE=@OLD_SQL_MODE; SELECT @@SESSION.sql_mode; SET sql_mode = DEFAULT; SELECT @@sql_mode");
    expect(script.filter((r) => r.kind === 'rows').map((r) => r.rows[0]![0])).toEqual(['NO_AUTO_VALUE_ON_ZERO', 'STRICT_ALL_TABLES', 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION']);
    // a session's own value ends with it; SET GLOBAL is the next sessions'
    expect(rows('SELECT @@sql_mode')).toEqual([['ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION']]);
    expect(rows("SET GLOBAL sql_mode = 'NO_AUTO_VALUE_ON_ZERO'; SELECT @@sql_mode, @@GLOBAL.sql_mode")).toEqual([['ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION', 'NO_AUTO_VALUE_ON_ZERO']]);
    expect(rows("SET sql_mode = ''; SHOW GLOBAL VARIABLES LIKE 'sql_mode'")).toEqual([['sql_mode', 'NO_AUTO_VALUE_ON_ZERO']]);
    expect(rows("SET sql_mode = ''; SHOW VARIABLES LIKE 'sql_mode'")).toEqual([['sql_mode', '']]);
    expect(rows('SELECT @@sql_mode')).toEqual([['NO_AUTO_VALUE_ON_ZERO']]);
    expect(errorOf("SET sql_mode = 'PIPES_AS_CONCAT'")).toBe("ERROR 1235 (42000): This version of MySQL doesn't yet support 'sql_mode PIPES_AS_CONCAT in the embedded source'");
    expect(errorOf("SET sql_mode = 'NOPE'")).toBe("ERROR 1231 (42000): Variable 'sql_mode' can't be set to the value of 'NOPE'");
  });

  it('outside strict mode a refused value is stored as the nearest one, with a warning, and goes to the change log so', () => {
    run("CREATE TABLE t (id INT PRIMARY KEY, n TINYINT, v VARCHAR(3), e ENUM('a','b'))");
    expect(errorOf("INSERT INTO t VALUES (1, 1000, 'abcd', 'z')")).toBe("ERROR 1264 (22003): Out of range value for column 'n' at row 1");
    const [, inserted] = fresh.src.executeSync('m', "SET sql_mode = ''; INSERT INTO t VALUES (1, 1000, 'abcd', 'z')");
    expect(inserted!.warnings?.conditions.map((c) => [c.code, c.message])).toEqual([
      [1264, "Out of range value for column 'n' at row 1"],
      // outside strict mode a cut string is 1265, not 1406 (Field_longstr::report_if_important_data)
      [1265, "Data truncated for column 'v' at row 1"],
      [1265, "Data truncated for column 'e' at row 1"],
    ]);
    expect(rows('SELECT * FROM t')).toEqual([[1, 127, 'abc', '']]);
    const after = fresh.src.readTransactions({ file: '', pos: 0 }, 1000).flatMap((tx) => tx.events).filter((e) => e.table === 't').map((e) => e.after);
    expect(after).toEqual([{ id: 1, n: 127, v: 'abc', e: '' }]);
  });

  it('0 for the AUTO_INCREMENT column takes the next value, unless NO_AUTO_VALUE_ON_ZERO', () => {
    run("CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(3))");
    run("INSERT INTO a VALUES (0, 'x'), (0, 'y')");
    run("INSERT INTO a (id, v) SELECT 0, 'z'");
    run("SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'; INSERT INTO a VALUES (0, 'k')");
    expect(rows('SELECT * FROM a ORDER BY id')).toEqual([[0, 'k'], [1, 'x'], [2, 'y'], [3, 'z']]);
  });
});
