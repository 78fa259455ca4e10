/**
 * String literals as MySQL reads them with its default sql_mode (mysql-strings.ts), beside MariaDB
 * (skipped without mariadbd, failing under CI=true): backslash escapes, double-quoted strings, and
 * LIKE's default escape character — in the rows writes store and log, and in what SELECTs match.
 */
import { describe } from 'vitest';
import { compareBinlogWithMariaDb } from './testing/binlog-vs-mariadb.test-util.js';
import { mariadbTests } from './testing/mariadb-server.js';
import { casesBeside, sideBySide, type CaseBeside } from './testing/side-by-side.test-util.js';

compareBinlogWithMariaDb({
  title: 'backslash escapes and double-quoted strings store and log the values MariaDB does',
  file: 'mysql-strings-vs-mariadb.test.ts',
  database: 'strs',
  script: [
    { what: 'a table of text', sql: "CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(40)); INSERT INTO s VALUES (1, 'plain')" },
    // what mysqldump and client libraries write: a quote escaped with a backslash
    { what: 'escaped quotes, backslashes, tabs and newlines', sql: "INSERT INTO s VALUES (2, 'it\\'s'), (3, 'a\\\\b'), (4, 'tab\\there'), (5, 'two\\nlines'), (6, 'ends with \\\\')" },
    { what: 'double quotes make a string', sql: 'INSERT INTO s VALUES (7, "double \\"quoted\\" and \'single\'")' },
    { what: 'LIKE keeps \\% and \\_, and escapes with a backslash', sql: "INSERT INTO s VALUES (8, 'a_b'), (9, 'axb'), (10, '100%'), (11, 'a\\_b')" },
    { what: 'an UPDATE whose WHERE compares with a double-quoted string', sql: 'UPDATE s SET v = "hit" WHERE v = "plain"' },
    { what: 'an UPDATE matching a literal underscore', sql: "UPDATE s SET v = CONCAT(v, '!') WHERE v LIKE 'a\\_b'" },
    { what: 'a DELETE matching a literal percent', sql: "DELETE FROM s WHERE v LIKE '%\\%'" },
    { what: 'defaults written with escapes and in double quotes', sql: "CREATE TABLE dft (id INT PRIMARY KEY, v VARCHAR(10) DEFAULT 'it\\'s', w VARCHAR(9) DEFAULT \"dq\", b VARCHAR(5) DEFAULT 'a\\\\b'); INSERT INTO dft (id) VALUES (1)" },
    { what: 'SET c = DEFAULT of such a column', sql: "INSERT INTO dft VALUES (2, 'x', 'y', 'z'); UPDATE dft SET v = DEFAULT, b = DEFAULT WHERE id = 2" },
  ],
  dump: 'SELECT * FROM s ORDER BY id; SELECT id, LENGTH(v) FROM s ORDER BY id; SELECT * FROM dft ORDER BY id',
});

// A definition's string literals are read as any literal is (mysql-ddl.ts requoted): `"say ""hi"""` was 1064
compareBinlogWithMariaDb({
  title: 'DEFAULTs with escapes store and log the values MariaDB does',
  file: 'mysql-strings-vs-mariadb.test.ts',
  database: 'strdefs',
  script: [
    {
      what: 'DEFAULTs with escapes, one in double quotes with doubled quotes',
      sql: "CREATE TABLE d (id INT PRIMARY KEY, nl VARCHAR(9) DEFAULT 'a\\nb', tb VARCHAR(9) DEFAULT 'a\\tb', nul VARCHAR(9) DEFAULT 'a\\0b', bs VARCHAR(9) DEFAULT 'a\\\\b', q VARCHAR(9) DEFAULT 'it\\'s', dq VARCHAR(12) DEFAULT \"say \"\"hi\"\"\", cz VARCHAR(9) DEFAULT 'a\\Zb\\bc', pct VARCHAR(9) DEFAULT 'a\\%b\\_c'); INSERT INTO d (id) VALUES (1)",
    },
    { what: 'SET c = DEFAULT of those columns', sql: "INSERT INTO d VALUES (2, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'); UPDATE d SET nl = DEFAULT, nul = DEFAULT, dq = DEFAULT, cz = DEFAULT, pct = DEFAULT WHERE id = 2" },
  ],
  dump: 'SELECT * FROM d ORDER BY id',
});

const CASES: CaseBeside[] = [
  { what: 'escapes in a SELECT', sql: "SELECT 'it\\'s', 'a\\\\b', LENGTH('a\\\\b'), 'x\\ty', 'q\\\"q', '\\%\\_', LENGTH('\\%'), 'no\\escape'" },
  { what: 'double-quoted strings are strings, not names', sql: 'SELECT "id", "it""s", "a\'b" FROM s WHERE id = 1' },
  { what: 'LIKE with escaped wildcards, NOT LIKE and ESCAPE given', sql: "SELECT id FROM s WHERE v LIKE 'a\\_b%' OR v LIKE '1|%%' ESCAPE '|' OR v NOT LIKE '%' ORDER BY id" },
  { what: 'REGEXP reads the backslash the literal keeps', sql: "SELECT 'a1' REGEXP 'a\\\\d', 'ab' REGEXP 'a\\\\d'" },
];

const mariadb = mariadbTests();
describe.skipIf(mariadb.skip)(`string literals in SELECTs are the real server's${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide('strs', "CREATE DATABASE st; USE st; CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(40)); INSERT INTO s VALUES (1, 'name'), (2, 'a_b'), (3, 'axb'), (4, '100%'), (5, 'a_bc')");
  casesBeside(pair, 'st', CASES);
});

// Each case fails on its own when a literal is misread (the setup holds no literal a misreading refuses)
const DEFINITION_CASES: CaseBeside[] = [
  { what: 'a COMMENT with escapes', sql: "SELECT COLUMN_NAME, COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'c' ORDER BY ORDINAL_POSITION" },
  // MariaDB 10.11's text: whether MySQL 8.0 writes the quote as \' here, as it does in SHOW CREATE TABLE's DEFAULT and COMMENT (mysql-type-display.test.ts), is not checked
  { what: 'ENUM and SET members with a tab, a backslash and a quote, as COLUMN_TYPE shows them', sql: "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'es' AND COLUMN_NAME <> 'id' ORDER BY ORDINAL_POSITION" },
  // MySQL 8.0 shows a literal default as its value (reference manual, "The INFORMATION_SCHEMA COLUMNS Table"); MariaDB
  // quotes and escapes it since 10.2.7, to tell literals from expressions (MDEV-13132; remote-source.ts reads both)
  {
    what: 'DEFAULTs with \\Z, \\b, \\% and \\_, as COLUMN_DEFAULT shows them',
    sql: "SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'd' AND COLUMN_NAME <> 'id' ORDER BY ORDINAL_POSITION",
    mysql: [['cz', 'a\x1ab\bc'], ['pct', 'a\\%b\\_c']],
  },
  {
    what: 'a DEFAULT in double quotes with doubled quotes, as COLUMN_DEFAULT shows it',
    sql: "CREATE TABLE dq (id INT PRIMARY KEY, v VARCHAR(12) DEFAULT \"say \"\"hi\"\"\"); SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'dq' AND COLUMN_NAME = 'v'",
    mysql: [['say "hi"']],
  },
  { what: 'an ENUM and a SET whose DEFAULTs are members with escapes', sql: "CREATE TABLE ed (id INT PRIMARY KEY, e ENUM('x\\ty', 'z') DEFAULT 'x\\ty', s SET('p\\tq', 'r') DEFAULT 'p\\tq,r'); INSERT INTO ed (id) VALUES (1); SELECT id, HEX(e), HEX(s) FROM ed" },
  { what: 'those DEFAULTs as COLUMN_DEFAULT shows them', sql: "SELECT COLUMN_NAME, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'ed' AND COLUMN_NAME <> 'id' ORDER BY ORDINAL_POSITION", mysql: [['e', 'x\ty'], ['s', 'p\tq,r']] },
  // mariadb-binlog prints an ENUM's index and a SET's bits, which compareBinlogWithMariaDb does not, so what is stored is compared here
  {
    what: 'ENUM and SET members with escapes stored from their escaped text (in any case), their index and bits',
    sql: "INSERT INTO es VALUES (10, 'x\\ty', 'p\\tq'), (11, 'Z', 'R,P\\tQ'), (12, 'a\\\\b', 's\\\\t'), (13, 'q\\'s', 'r,s\\\\t'), (14, 1, 1), (15, 3, 5), (16, 4, 7); SELECT id, HEX(e), e + 0, HEX(s) FROM es WHERE id >= 10 ORDER BY id",
  },
  // a member is read with stringValue (column-values.ts), so the definition can keep a newline as \n, as MariaDB shows it
  { what: 'ENUM members with a newline and a carriage return, as COLUMN_TYPE shows them', sql: "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'en' AND COLUMN_NAME = 'e'" },
  { what: 'members with a NUL, a Ctrl-Z and \\%, as COLUMN_TYPE shows them', sql: "CREATE TABLE ez (id INT PRIMARY KEY, e ENUM('n\\0l', 'z\\Zz', 'p\\%q')); SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'ez' AND COLUMN_NAME = 'e'" },
  // a backslash the definition keeps doubled is one character of the member
  { what: 'CHARACTER_MAXIMUM_LENGTH of ENUMs and SETs whose members have escapes', sql: "SELECT TABLE_NAME, COLUMN_NAME, CHARACTER_MAXIMUM_LENGTH, CHARACTER_OCTET_LENGTH FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME IN ('es', 'en') AND COLUMN_NAME <> 'id' ORDER BY TABLE_NAME, ORDINAL_POSITION" },
  // MySQL 8.0 shows a literal default as its value (see above); mysql-type-display.test.ts holds SHOW CREATE TABLE's text
  {
    what: 'a default set by ALTER … SET DEFAULT with \\Z and \\%, as COLUMN_DEFAULT shows it',
    sql: "CREATE TABLE ad (id INT PRIMARY KEY, c VARCHAR(9) DEFAULT 'x'); ALTER TABLE ad ALTER c SET DEFAULT 'r\\Zs\\%'; SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sd' AND TABLE_NAME = 'ad' AND COLUMN_NAME = 'c'",
    mysql: [['r\x1as\\%']],
  },
  { what: "that default as DESCRIBE's Default shows it", sql: 'DESCRIBE ad', mysql: [['id', 'int', 'NO', 'PRI', null, ''], ['c', 'varchar(9)', 'YES', '', 'r\x1as\\%', '']] },
  { what: 'members with a newline and a carriage return', sql: "INSERT INTO en VALUES (1, 'n\\nl'), (2, 'r\\rt'), (3, 2), (4, 3); SELECT id, HEX(e), e + 0 FROM en ORDER BY id" },
  { what: 'an ENUM compared with escaped members, and read as its index', sql: "SELECT id, e, e + 0 FROM es WHERE e = 'x\\ty' OR e IN ('a\\\\b', 'q\\'s') ORDER BY id" },
  { what: 'an UPDATE and a DELETE whose WHERE compares the ENUM with escaped members', sql: "UPDATE es SET s = 'r' WHERE e = 'x\\ty'; DELETE FROM es WHERE e IN ('a\\\\b', 'q\\'s'); SELECT id, HEX(e), HEX(s) FROM es ORDER BY id" },
  { what: 'a prepared statement whose text has escapes', sql: "PREPARE p FROM 'SELECT HEX(\\'a\\tb\\'), HEX(\\'a\\nb\\'), HEX(\\'a\\Zb\\'), id FROM es WHERE e = \\'x\\\\ty\\''; EXECUTE p" },
  { what: 'a prepared statement in double quotes', sql: 'PREPARE p FROM "SELECT id FROM es WHERE e = \\"x\\ty\\""; EXECUTE p' },
];

describe.skipIf(mariadb.skip)(`escapes in definitions are read as the real server reads them${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const pair = sideBySide(
    'strdefs',
    [
      'CREATE DATABASE sd; USE sd',
      "CREATE TABLE c (id INT PRIMARY KEY, v VARCHAR(9) COMMENT 'it\\'s a\\nb\\tc\\\\d\\Z')",
      "CREATE TABLE d (id INT PRIMARY KEY, cz VARCHAR(9) DEFAULT 'a\\Zb\\bc', pct VARCHAR(9) DEFAULT 'a\\%b\\_c')",
      "CREATE TABLE es (id INT PRIMARY KEY, e ENUM('x\\ty', 'z', 'a\\\\b', 'q\\'s'), s SET('p\\tq', 'r', 's\\\\t'))",
      "CREATE TABLE en (id INT PRIMARY KEY, e ENUM('n\\nl', 'r\\rt', 'z'))",
    ].join('; '),
  );
  casesBeside(pair, 'sd', DEFINITION_CASES);
});
