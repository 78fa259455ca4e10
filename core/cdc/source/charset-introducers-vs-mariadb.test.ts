/**
 * Charset introducers, national strings and bit and hex literals (charset-introducers.ts), beside
 * MariaDB (skipped without mariadbd, failing under CI=true): what mysqldump and client libraries
 * write (`_binary 'bytes'` for a BLOB, b'101' for a BIT, 0x… with --hex-blob, `_utf8mb4'…'` in a
 * view), in the rows writes store and log, in DEFAULTs, and in what SELECTs show and match. Each
 * was 1064 or an unknown column before.
 */
import { describe, expect, it } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

compareBinlogWithMariaDb({
  title: 'introduced and national literals store and log the values MariaDB does',
  file: 'charset-introducers-vs-mariadb.test.ts',
  database: 'intro',
  script: [
    { what: 'a table of text', sql: "CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(20), n INT)" },
    { what: 'INSERT with introducers, N and escapes', sql: "INSERT INTO s VALUES (1, _utf8mb4'it\\'s', 1), (2, N'nat\\n', _utf8mb4 '7'), (3, _utf8mb4 X'C3A9', _binary'8')" },
    { what: 'latin1 reads the UTF-8 bytes of the text as its own characters', sql: "INSERT INTO s VALUES (4, _latin1'é', 0), (5, _latin1 X'E9', 0), (6, _utf8mb4 0x4142, 0), (7, _utf8mb4'a' 'b' \"c\", 0)" },
    { what: 'hex and bit literals into a string column', sql: "INSERT INTO s VALUES (8, X'4142', 0), (9, 0x4344, 0x31), (10, B'0100000101000010', 0)" },
    { what: 'REPLACE with introducers', sql: "REPLACE INTO s VALUES (1, _utf8mb4'replaced' COLLATE utf8mb4_bin, 2)" },
    { what: 'UPDATE SET and WHERE with introducers', sql: "UPDATE s SET v = _utf8mb4'upd\\Z' WHERE v = _utf8mb4'nat\\n' OR v = N'AB'" },
    { what: 'DELETE whose WHERE has a COLLATE after an introduced literal', sql: "DELETE FROM s WHERE v = _utf8mb4'CD' COLLATE utf8mb4_general_ci" },
    {
      what: 'DEFAULTs written with introducers and N',
      sql: "CREATE TABLE d (id INT PRIMARY KEY, a VARCHAR(9) DEFAULT _utf8mb4'a\\nb', b VARCHAR(9) DEFAULT _latin1 X'E9', c VARCHAR(9) DEFAULT N'it''s' COLLATE utf8mb4_bin, f VARCHAR(9) DEFAULT _utf8mb4 0x4142, g VARCHAR(9) DEFAULT _utf8mb4'a' 'b'); INSERT INTO d (id) VALUES (1)",
    },
    { what: 'SET c = DEFAULT of those columns', sql: "INSERT INTO d VALUES (2, 'x', 'x', 'x', 'x', 'x'); UPDATE d SET a = DEFAULT, b = DEFAULT, g = DEFAULT WHERE id = 2" },
  ],
  dump: 'SELECT * FROM s ORDER BY id; SELECT * FROM d ORDER BY id',
});

const CASES: CaseBeside[] = [
  { what: 'introducers of the common charsets, in any case, with and without a space', sql: "SELECT _utf8mb4'abc', _UTF8MB4 'sp', _utf8'q', _utf8mb3'r', _ascii'z', _latin1'x', _Binary'ab', HEX(_binary'a\\nb')" },
  { what: 'N and n, and strings written next to each other', sql: "SELECT N'nat', n'it\\'s', N'a' 'b', _utf8mb4'a' \"b\" 'c', _binary'a' 'b'" },
  { what: 'an introducer before hex and bit literals, and COLLATE after', sql: "SELECT _latin1 X'41', _binary 0x4142, _utf8mb4 B'01000001', _utf8mb4 0x41, _utf8mb4 X'C3A9', _utf8mb4'abc' COLLATE utf8mb4_bin, _latin1'x' COLLATE latin1_bin" },
  { what: 'bit literals alone', sql: "SELECT B'', b'1', B'100000000', HEX(B'1'), HEX(b'0100000101000010')" },
  { what: 'latin1 and ascii read the UTF-8 bytes of the text', sql: "SELECT _latin1'é', _ascii'é', _latin1 X'E9'" },
  { what: 'the wide and other charsets', sql: "SELECT _ucs2 X'0041', _utf16 X'D83DDE00', _utf32 X'41', _ucs2 'a', _cp1251 X'C0', _koi8r X'C1', _greek X'E1', _latin2 X'B1'" },
  { what: 'lengths of introduced strings', sql: "SELECT LENGTH(N'é'), CHAR_LENGTH(_utf8mb4'é'), LENGTH(_binary'é'), CONCAT(N'x', _utf8mb4'y'), _utf8mb4 '7' + 1, N'7' + 1" },
  { what: 'WHERE with introduced strings', sql: "SELECT id FROM t WHERE v = _utf8mb4'one' OR v = N'two' OR b = _binary'b\\0c' ORDER BY id" },
  { what: 'a view whose SELECT has introduced strings', sql: "CREATE VIEW vw AS SELECT id, _utf8mb4'lit' AS l, N'nat' AS m FROM t WHERE v <> _utf8mb4'two'; SELECT * FROM vw ORDER BY id" },
  {
    what: "mysqldump's INSERT of BLOB, BIT and binary-string values",
    sql: "INSERT INTO m VALUES (1, b'101', _binary 'a\\'\\\\\\0\\r\\n\\Z', _binary 'txt'), (2, B'11111111', _binary X'FF00', X'4142'), (3, b'0', 0x89504E47, 0x6869); SELECT id, bt + 0, HEX(bl), v FROM m ORDER BY id",
  },
  // MariaDB 10.11 stores each byte that is no UTF-8 as ? under IGNORE
  { what: 'bytes that are no UTF-8 into a VARCHAR under IGNORE', sql: "INSERT IGNORE INTO m (id, v) VALUES (8, X'41E942'); SELECT id, v FROM m WHERE id = 8" },
  // mariadb-binlog prints an ENUM's index, which compareBinlogWithMariaDb does not, so what is stored is compared here
  {
    what: 'an ENUM and a SET given introduced, national, hex and bit literals, and an ENUM DEFAULT with an introducer',
    sql: "CREATE TABLE es (id INT PRIMARY KEY, e ENUM('a', 'b\\tc') DEFAULT _utf8mb4'b\\tc', s SET('x', 'y')); INSERT INTO es VALUES (1, _utf8mb4'a', _binary'x,y'), (2, _binary'b\\tc', N'y'), (3, 0x61, 0x79), (4, X'61', B'01111000'); INSERT INTO es (id) VALUES (5); SELECT id, e, e + 0, s, s + 0 FROM es ORDER BY id",
  },
  { what: 'UPDATE SET of binary strings', sql: "UPDATE m SET bl = _binary'new', v = _latin1 X'E9', bt = b'1' WHERE id = 1; SELECT id, bt + 0, HEX(bl), v FROM m WHERE id = 1" },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`introduced literals in SELECTs are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide(
    'intro',
    [
      'CREATE DATABASE it; USE it',
      "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(9), b BLOB); INSERT INTO t VALUES (1, 'one', 'b\\0c'), (2, 'two', ''), (3, 'three', 'x')",
      'CREATE TABLE m (id INT PRIMARY KEY, bt BIT(8), bl LONGBLOB, v VARCHAR(10))',
    ].join('; '),
  );
  casesBeside(pair, 'it', CASES);
});

/** The message a statement fails with. */
const failure = (run: Promise<unknown>) => run.then(() => 'no error', (e: Error) => e.message);

describe.skipIf(mariadb.skip)(`literals a charset cannot read fail as on the real server${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('intro-errors', 'CREATE DATABASE ie; USE ie; CREATE TABLE m (id INT PRIMARY KEY, v VARCHAR(10))');
  for (const sql of ["SELECT _utf8mb4 X'E9'", "SELECT _utf8mb3 X'F09F9880'", "SELECT _utf8mb4 0xC3", "SELECT _utf8mb4'x' COLLATE latin1_bin", "SELECT _latin1 X'41' COLLATE utf8mb4_bin", "SELECT _binary'x' COLLATE utf8mb4_bin"]) {
    it(`ER_INVALID_CHARACTER_STRING, ER_COLLATION_CHARSET_MISMATCH: ${sql}`, async () => {
      const message = await failure(pair.real.execute('ie', sql));
      expect(message).toMatch(/^(?:Invalid utf8mb[34] character string|COLLATION '\w+' is not valid for CHARACTER SET)/);
      expect(await failure(pair.embedded.execute('ie', sql))).toBe(message);
    });
  }
  // MySQL 8.0 names the column 'v' where MariaDB 10.11 writes `ie`.`m`.`v` (errmsg-utf8.txt, ER_TRUNCATED_WRONG_VALUE_FOR_FIELD)
  it("bytes that are no UTF-8 into a VARCHAR: INSERT INTO m VALUES (1, X'41E9')", async () => {
    const sql = "INSERT INTO m VALUES (1, X'41E9')";
    expect(await failure(pair.real.execute('ie', sql))).toBe("Incorrect string value: '\\xE9' for column `ie`.`m`.`v` at row 1");
    expect(await failure(pair.embedded.execute('ie', sql))).toBe("Incorrect string value: '\\xE9' for column 'v' at row 1");
  });
});
