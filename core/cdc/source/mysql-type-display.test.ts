import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSource } from './embedded-source.js';
import { MySqlError } from './mysql-error.js';

let dir: string;
let src: EmbeddedSource;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-types-'));
  src = await EmbeddedSource.open({ dir });
});
afterAll(async () => {
  await src.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Creates a one-column table `c <written>` and returns what SHOW CREATE TABLE and DESCRIBE print for it. */
function shown(written: string): { create: string; describe: string } {
  const table = `t${++n}`;
  src.executeSync('demo', `CREATE TABLE ${table} (c ${written})`);
  const [create] = src.executeSync('demo', `SHOW CREATE TABLE ${table}`);
  const [desc] = src.executeSync('demo', `DESCRIBE ${table}`);
  const [cols] = src.executeSync('demo', `SHOW COLUMNS FROM ${table}`);
  expect(cols!.rows[0]![1]).toBe(desc!.rows[0]![1]);
  const line = String(create!.rows[0]![1]).split('\n')[1]!;
  return { create: line.replace(/^ {2}`c` /, '').replace(/ DEFAULT NULL,?$/, ''), describe: String(desc!.rows[0]![1]) };
}

/** [as written, as MySQL 8.0.36 shows it, where the rule comes from]. */
const cases: [string, string, string][] = [
  // WL#13528 (8.0.19): no integer display width in SHOW CREATE / DESCRIBE / COLUMN_TYPE …
  ['int(11)', 'int', 'WL#13528; sql/field.cc integer_sql_type'],
  ['bigint(20) unsigned', 'bigint unsigned', 'WL#13528; sql/field.cc integer_sql_type'],
  ['smallint(6)', 'smallint', 'WL#13528'],
  ['mediumint(9)', 'mediumint', 'WL#13528'],
  ['tinyint(4)', 'tinyint', 'WL#13528'],
  // … except TINYINT(1), signed and without ZEROFILL (Field_tiny::sql_type)
  ['tinyint(1)', 'tinyint(1)', 'sql/field.cc Field_tiny::sql_type'],
  ['tinyint(1) unsigned', 'tinyint unsigned', 'sql/field.cc Field_tiny::sql_type'],
  // BOOL and BOOLEAN are TINYINT(1) (Numeric Data Type Syntax)
  ['bool', 'tinyint(1)', 'refman 8.0 numeric-type-syntax: BOOL, BOOLEAN synonyms for TINYINT(1)'],
  ['boolean', 'tinyint(1)', 'refman 8.0 numeric-type-syntax'],
  // INTEGER and the INT1…INT8/MIDDLEINT keywords (sql/lex.h)
  ['integer', 'int', 'sql/lex.h {"INTEGER", INT_SYM}'],
  ['integer unsigned', 'int unsigned', 'sql/lex.h'],
  ['int1', 'tinyint', 'sql/lex.h {"INT1", TINYINT_SYM}'],
  ['int2', 'smallint', 'sql/lex.h {"INT2", SMALLINT_SYM}'],
  ['int3', 'mediumint', 'sql/lex.h {"INT3", MEDIUMINT_SYM}'],
  ['middleint', 'mediumint', 'sql/lex.h {"MIDDLEINT", MEDIUMINT_SYM}'],
  ['int4', 'int', 'sql/lex.h {"INT4", INT_SYM}'],
  ['int8', 'bigint', 'sql/lex.h {"INT8", BIGINT_SYM}'],
  // ZEROFILL implies UNSIGNED and keeps the width, by default MAX_<TYPE>_WIDTH (Create_field::init)
  ['integer unsigned zerofill', 'int(10) unsigned zerofill', 'refman numeric-type-syntax; sql/create_field.cc MAX_INT_WIDTH'],
  ['int zerofill', 'int(10) unsigned zerofill', 'refman numeric-type-syntax: ZEROFILL adds UNSIGNED'],
  ['int(5) zerofill', 'int(5) unsigned zerofill', 'WL#13528: width kept with ZEROFILL'],
  ['tinyint zerofill', 'tinyint(3) unsigned zerofill', 'sql/create_field.cc MAX_TINYINT_WIDTH'],
  ['smallint zerofill', 'smallint(5) unsigned zerofill', 'sql/create_field.cc MAX_SMALLINT_WIDTH'],
  ['mediumint zerofill', 'mediumint(8) unsigned zerofill', 'sql/create_field.cc MAX_MEDIUMINT_WIDTH'],
  ['bigint zerofill', 'bigint(20) unsigned zerofill', 'sql/create_field.cc MAX_BIGINT_WIDTH'],
  // DEC, NUMERIC and FIXED are DECIMAL; M defaults to 10 and D to 0 (Field_new_decimal::sql_type)
  ['numeric(5,2)', 'decimal(5,2)', 'refman numeric-type-syntax: DEC, NUMERIC, FIXED synonyms'],
  ['dec(5,2)', 'decimal(5,2)', 'sql/lex.h {"DEC", DECIMAL_SYM}'],
  ['fixed(7,3)', 'decimal(7,3)', 'refman numeric-type-syntax'],
  ['decimal', 'decimal(10,0)', 'refman numeric-type-syntax: M default 10, D default 0'],
  ['decimal(8)', 'decimal(8,0)', 'refman numeric-type-syntax'],
  ['numeric unsigned', 'decimal(10,0) unsigned', 'sql/field.cc append_zerofill_and_unsigned'],
  // REAL and DOUBLE PRECISION are DOUBLE (without REAL_AS_FLOAT); FLOAT8 is DOUBLE, FLOAT4 is FLOAT
  ['real', 'double', 'refman numeric-types: REAL synonym for DOUBLE PRECISION unless REAL_AS_FLOAT'],
  ['double precision', 'double', 'refman numeric-types: DOUBLE synonym for DOUBLE PRECISION'],
  ['double precision(10,2) unsigned', 'double(10,2) unsigned', 'sql/field.cc Field_double::sql_type'],
  ['float8', 'double', 'sql/lex.h {"FLOAT8", DOUBLE_SYM}'],
  ['float4', 'float', 'sql/lex.h {"FLOAT4", FLOAT_SYM}'],
  // FLOAT(p): FLOAT for p ≤ PRECISION_FOR_FLOAT (24), DOUBLE up to 53 (Create_field::init)
  ['float(10)', 'float', 'sql/create_field.cc Create_field::init MYSQL_TYPE_FLOAT'],
  ['float(24)', 'float', 'sql/create_field.cc: tmp_length > PRECISION_FOR_FLOAT'],
  ['float(25)', 'double', 'sql/create_field.cc: tmp_length > PRECISION_FOR_FLOAT'],
  ['float(53)', 'double', 'sql/create_field.cc PRECISION_FOR_DOUBLE'],
  ['float(8,4)', 'float(8,4)', 'sql/field.cc Field_float::sql_type'],
  // CHAR, BINARY and BIT without a length have length 1
  ['char', 'char(1)', 'refman string-type-syntax: if M is omitted, the length is 1'],
  ['binary', 'binary(1)', 'refman string-type-syntax'],
  ['bit', 'bit(1)', 'refman numeric-type-syntax: BIT M defaults to 1'],
  // YEAR(4) is YEAR (WL#13537)
  ['year(4)', 'year', 'WL#13537 F-3, F-8'],
  // fractional seconds precision 0 is not shown
  ['datetime(0)', 'datetime', 'sql/field.cc Field_datetimef::sql_type'],
  ['datetime(3)', 'datetime(3)', 'sql/field.cc Field_datetimef::sql_type'],
  // TEXT(M) and BLOB(M) become the smallest type that holds M (Create_field::max_display_width_in_codepoints)
  ['text(50)', 'tinytext', 'sql/create_field.cc: BLOB(25), TEXT(25) find the smallest type; utf8mb4 is 4 bytes a character'],
  ['text(100)', 'text', 'sql/create_field.cc'],
  ['blob(200)', 'tinyblob', 'sql/create_field.cc'],
  // unchanged
  ['varchar(255)', 'varchar(255)', 'refman string-type-syntax'],
  ['int unsigned', 'int unsigned', 'WL#13528'],
  ["enum('a','b')", "enum('a','b')", 'refman string-type-syntax'],
];

describe('column types as MySQL 8.0.36 shows them in SHOW CREATE TABLE and DESCRIBE', () => {
  it.each(cases)('%s shows as %s (%s)', (written, expected) => {
    expect(shown(written)).toEqual({ create: expected, describe: expected });
  });

  it('SERIAL shows as bigint unsigned NOT NULL AUTO_INCREMENT with a unique key', () => {
    src.executeSync('demo', 'CREATE TABLE s (id serial)');
    expect(src.executeSync('demo', 'SHOW CREATE TABLE s')[0]!.rows[0]![1]).toContain('`id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  UNIQUE KEY `id` (`id`)');
  });

  it('FLOAT(p) above 53 is refused as MySQL does (ER_WRONG_FIELD_SPEC, Create_field::init)', () => {
    let err: unknown;
    try {
      src.executeSync('demo', 'CREATE TABLE f (c float(54))');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MySqlError);
    expect(String(err)).toBe("ERROR 1063 (42000): Incorrect column specifier for column 'c'");
  });

  it('keeps the type as written in the stored definition (Debezium parses DDL as written)', () => {
    src.executeSync('demo', 'CREATE TABLE w (a int(11), b integer unsigned zerofill, c double precision, d numeric(5,2))');
    const cols = src.tableDef('demo', 'w')!.columns;
    expect(cols.map((c) => [c.mysqlType, c.baseType, c.args, c.unsigned, c.zerofill ?? false])).toEqual([
      ['int(11)', 'int', ['11'], false, false],
      ['integer unsigned', 'integer', [], true, true],
      ['double precision', 'double precision', [], false, false],
      ['numeric(5,2)', 'numeric', ['5', '2'], false, false],
    ]);
  });

  it('values of synonym columns read back as before: integers, doubles, decimals', () => {
    src.executeSync('demo', "CREATE TABLE v (a int1, b middleint, c int8, d double precision, e float8, f fixed(6,2), g bool)");
    src.executeSync('demo', "INSERT INTO v VALUES (7, -8, 9007199254740991, 1.5, 2.25, '12.50', 1)");
    expect(src.executeSync('demo', 'SELECT * FROM v')[0]!.rows).toEqual([[7, -8, 9007199254740991, 1.5, 2.25, '12.50', 1]]);
  });
});

describe('defaults and comments as MySQL 8.0.36 prints them', () => {
  /** The column line of SHOW CREATE TABLE and DESCRIBE's Default and Extra for `c <written>`. */
  function column(written: string): { line: string; default: unknown; extra: unknown } {
    const table = `d${++n}`;
    src.executeSync('demo', `CREATE TABLE ${table} (c ${written})`);
    const [create] = src.executeSync('demo', `SHOW CREATE TABLE ${table}`);
    const [desc] = src.executeSync('demo', `DESCRIBE ${table}`);
    return { line: String(create!.rows[0]![1]).split('\n')[1]!.replace(/,$/, ''), default: desc!.rows[0]![4], extra: desc!.rows[0]![5] };
  }

  // sql_show.cc print_default_clause: a literal default as Field::val_str gives it, quoted (append_unescaped)
  it.each([
    ['int DEFAULT -1', "  `c` int DEFAULT '-1'", '-1'],
    ["int DEFAULT '07'", "  `c` int DEFAULT '7'", '7'],
    ['bool DEFAULT TRUE', "  `c` tinyint(1) DEFAULT '1'", '1'],
    ['decimal(10,2) DEFAULT 1', "  `c` decimal(10,2) DEFAULT '1.00'", '1.00'],
    ['double DEFAULT 1e3', "  `c` double DEFAULT '1000'", '1000'],
    ["datetime DEFAULT '2024-01-02'", "  `c` datetime DEFAULT '2024-01-02 00:00:00'", '2024-01-02 00:00:00'],
    ["time(2) DEFAULT '1:2:3'", "  `c` time(2) DEFAULT '01:02:03.00'", '01:02:03.00'],
    ["varchar(9) DEFAULT 'it''s'", "  `c` varchar(9) DEFAULT 'it\\'s'", "it's"],
    ["bit(3) DEFAULT b'101'", "  `c` bit(3) DEFAULT b'101'", "b'101'"],
  ])('%s', (written, line, dflt) => {
    const c = column(written);
    expect(c.line).toBe(line);
    expect(c.default).toBe(dflt);
    expect(c.extra).toBe('');
  });

  // literalValue read \Z as Z and \% as %, showing rZs% while the column stored r␚s\%
  it("ALTER … SET DEFAULT with escapes: the default's value, \\Z and \\% as MySQL reads them", () => {
    const table = `d${++n}`;
    src.executeSync('demo', `CREATE TABLE ${table} (c varchar(20) DEFAULT 'x'); ALTER TABLE ${table} ALTER c SET DEFAULT 'r\\Zs\\%\\n\\\\'`);
    const [create] = src.executeSync('demo', `SHOW CREATE TABLE ${table}`);
    const [desc] = src.executeSync('demo', `DESCRIBE ${table}`);
    expect(String(create!.rows[0]![1]).split('\n')[1]).toBe("  `c` varchar(20) DEFAULT 'r\\Zs\\\\%\\n\\\\'");
    expect(desc!.rows[0]![4]).toBe('r\x1as\\%\n\\');
  });

  it('CURRENT_TIMESTAMP with the column fractional digits, TIMESTAMP saying NULL, DEFAULT_GENERATED and on update in Extra', () => {
    const c = column('timestamp(3) DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)');
    expect(c.line).toBe('  `c` timestamp(3) NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)');
    expect([c.default, c.extra]).toEqual(['CURRENT_TIMESTAMP(3)', 'DEFAULT_GENERATED on update CURRENT_TIMESTAMP(3)']);
    expect(column('datetime DEFAULT NOW()').line).toBe('  `c` datetime DEFAULT CURRENT_TIMESTAMP');
  });

  it('no DEFAULT NULL for TEXT and BLOB columns, but for JSON; an expression default in parentheses; a COMMENT last', () => {
    expect(column('text').line).toBe('  `c` text');
    expect(column('blob').line).toBe('  `c` blob');
    expect(column('json').line).toBe('  `c` json DEFAULT NULL');
    const e = column('date DEFAULT (CURRENT_DATE)');
    expect([e.line, e.default, e.extra]).toEqual(['  `c` date DEFAULT (CURRENT_DATE)', 'CURRENT_DATE', 'DEFAULT_GENERATED']);
    expect(column("int NOT NULL DEFAULT 3 COMMENT 'the ''answer'''").line).toBe("  `c` int NOT NULL DEFAULT '3' COMMENT 'the \\'answer\\''");
  });
});
