/**
 * A column's type as MySQL 8.0.36 shows it (SHOW CREATE TABLE, DESCRIBE / SHOW COLUMNS,
 * information_schema.COLUMNS.COLUMN_TYPE), from the type as written. The server stores the
 * normalized type, so synonyms, default lengths and dropped display widths never show; the
 * embedded source keeps the type as written (Debezium parses DDL as the user wrote it) and
 * normalizes only what it prints.
 *
 * Sources, mysql-server 8.0: sql/lex.h (type synonyms), sql/create_field.cc Create_field::init
 * (default widths, FLOAT(p), BLOB/TEXT(M)), sql/field.cc integer_sql_type and the Field_*::sql_type
 * implementations; reference manual "Numeric Data Type Syntax", "String Data Type Syntax" and
 * WL#13528 (no integer display width since 8.0.19, except TINYINT(1) and with ZEROFILL).
 */
import type { ColumnDef } from './mysql-ddl.js';

/** sql/lex.h: INT1…INT8, MIDDLEINT, INTEGER are the integer keywords; BOOL/BOOLEAN are TINYINT(1). */
const INTEGER_NAMES: Record<string, string> = {
  tinyint: 'tinyint', int1: 'tinyint', bool: 'tinyint', boolean: 'tinyint',
  smallint: 'smallint', int2: 'smallint',
  mediumint: 'mediumint', int3: 'mediumint', middleint: 'mediumint',
  int: 'int', integer: 'int', int4: 'int',
  bigint: 'bigint', int8: 'bigint', serial: 'bigint',
};

/**
 * Create_field::init: a width not given is MAX_<TYPE>_WIDTH plus one for the sign
 * (MAX_TINYINT_WIDTH 3, MAX_SMALLINT_WIDTH 5, MAX_MEDIUMINT_WIDTH 8, MAX_INT_WIDTH 10); BIGINT's
 * is MAX_BIGINT_WIDTH, 20, either way.
 */
const DEFAULT_WIDTH: Record<string, number> = { tinyint: 3, smallint: 5, mediumint: 8, int: 10, bigint: 20 };

const DECIMAL_NAMES = new Set(['decimal', 'dec', 'numeric', 'fixed']);
/** REAL is DOUBLE unless the REAL_AS_FLOAT SQL mode is on (the embedded source has no such mode). */
const DOUBLE_NAMES = new Set(['double', 'double precision', 'float8', 'real']);
const FLOAT_NAMES = new Set(['float', 'float4']);
/** PRECISION_FOR_FLOAT and PRECISION_FOR_DOUBLE (sql/sql_const.h). */
export const PRECISION_FOR_FLOAT = 24;
export const PRECISION_FOR_DOUBLE = 53;

/** TEXT(M)/BLOB(M) become the smallest type that holds M characters (bytes for BLOB). */
const TEXT_BY_SIZE: [number, string, string][] = [
  [255, 'tinytext', 'tinyblob'],
  [65_535, 'text', 'blob'],
  [16_777_215, 'mediumtext', 'mediumblob'],
];
/** utf8mb4, the only character set of the embedded source, takes up to 4 bytes a character. */
const UTF8MB4_MAXLEN = 4;

const TEMPORAL = new Set(['datetime', 'timestamp', 'time']);

const width = (arg: string | undefined): number => (arg !== undefined && /^\d+$/.test(arg.trim()) ? Number(arg) : 0);

/**
 * The column type MySQL 8.0.36 prints for `c`, e.g. `int`, `tinyint(1)`, `decimal(10,0)`, `int(10) unsigned zerofill`.
 * Not done: MySQL shows CHAR/VARCHAR/TEXT … CHARACTER SET binary as BINARY/VARBINARY/BLOB, but the
 * embedded source stores those columns as text, and a reader of SHOW CREATE TABLE (Debezium's
 * snapshot) would then take their values for hex-encoded bytes.
 */
export function displayType(c: ColumnDef): string {
  const base = c.baseType.toLowerCase();
  const zerofill = c.zerofill === true;
  // ZEROFILL adds UNSIGNED ("Numeric Data Type Syntax"; ZEROFILL_SYM sets UNSIGNED_FLAG too)
  const unsigned = c.unsigned || zerofill;
  const attributes = `${unsigned ? ' unsigned' : ''}${zerofill ? ' zerofill' : ''}`;

  const integer = INTEGER_NAMES[base];
  if (integer) {
    const given = base === 'bool' || base === 'boolean' ? 1 : width(c.args[0]);
    const shownWidth = given || DEFAULT_WIDTH[integer]! + (unsigned || integer === 'bigint' ? 0 : 1);
    // Field_tiny::sql_type: TINYINT(1) keeps its width, since connectors read it as BOOLEAN
    if (integer === 'tinyint' && shownWidth === 1 && !unsigned) return 'tinyint(1)';
    // integer_sql_type: the display width only with ZEROFILL
    return `${integer}${zerofill ? `(${shownWidth})` : ''}${attributes}`;
  }
  if (DECIMAL_NAMES.has(base)) {
    // Field_new_decimal::sql_type prints decimal(M,D); M defaults to 10 and D to 0
    return `decimal(${width(c.args[0]) || 10},${width(c.args[1])})${attributes}`;
  }
  if (FLOAT_NAMES.has(base) || DOUBLE_NAMES.has(base)) {
    // Create_field::init: FLOAT(p) is FLOAT for p ≤ 24 and DOUBLE for 25 ≤ p ≤ 53, with no (M,D)
    const precisionOnly = FLOAT_NAMES.has(base) && c.args.length === 1;
    const name = DOUBLE_NAMES.has(base) || (precisionOnly && width(c.args[0]) > PRECISION_FOR_FLOAT) ? 'double' : 'float';
    // Field_float/Field_double::sql_type: (M,D) only when both were given
    const md = c.args.length === 2 ? `(${width(c.args[0])},${width(c.args[1])})` : '';
    return `${name}${md}${attributes}`;
  }
  if (base === 'bit') return `bit(${width(c.args[0]) || 1})`;
  // WL#13537: YEAR(4) is YEAR, and SHOW CREATE prints YEAR
  if (base === 'year') return 'year';
  // Field_temporal…::sql_type prints the fractional-second precision only when it is not 0
  if (TEMPORAL.has(base)) return width(c.args[0]) ? `${base}(${width(c.args[0])})` : base;
  // CHAR and BINARY without a length are CHAR(1) and BINARY(1) ("String Data Type Syntax")
  if (base === 'char' || base === 'binary') return `${base}(${width(c.args[0]) || 1})`;
  if ((base === 'text' || base === 'blob') && c.args.length) {
    const bytes = width(c.args[0]) * (base === 'text' ? UTF8MB4_MAXLEN : 1);
    const [, text, blob] = TEXT_BY_SIZE.find(([max]) => bytes <= max) ?? [0, 'longtext', 'longblob'];
    return base === 'blob' ? blob : text;
  }
  return c.args.length ? `${base}(${c.args.join(',')})` : base;
}
