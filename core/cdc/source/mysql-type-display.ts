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
import { storeKind, storeValue, StoreError, type GivenValue } from './column-values.js';
import type { ColumnDef } from './mysql-ddl.js';
import { stringValue } from './mysql-strings.js';

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
  // Field_geom::sql_type: MySQL 8.0 names GEOMETRYCOLLECTION by its synonym
  if (base === 'geometrycollection') return 'geomcollection';
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

/** A CURRENT_TIMESTAMP default (or ON UPDATE) in any of MySQL's spellings. */
export const NOW_DEFAULT = /^(current_timestamp|now|localtime|localtimestamp)(?:\((\d*)\))?$/i;
/**
 * Types whose columns have no DEFAULT clause printed unless given an expression
 * (print_default_clause skips fields whose type() is MYSQL_TYPE_BLOB, TEXT among them). JSON and
 * the spatial types are Field_blob too but have types of their own, so a nullable one prints
 * DEFAULT NULL (as MariaDB 10.11 does: `h geometry DEFAULT NULL`).
 */
const BLOB_LIKE = new Set(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

/** A column's default as the server keeps it: none, NULL, CURRENT_TIMESTAMP, an expression, or a literal in the column's stored form. */
type StoredDefault = { kind: 'none' } | { kind: 'null' } | { kind: 'now'; text: string } | { kind: 'expression'; text: string } | { kind: 'literal'; text: string };

function storedDefault(c: ColumnDef): StoredDefault {
  const e = c.defaultExpr;
  if (c.autoIncrement) return { kind: 'none' };
  if (e !== null && e.startsWith('(')) return { kind: 'expression', text: e };
  if (e === null || /^null$/i.test(e)) return c.nullable ? { kind: 'null' } : { kind: 'none' };
  if (NOW_DEFAULT.test(e)) return { kind: 'now', text: nowClause(c) };
  return { kind: 'literal', text: storedDefaultText(c, e) };
}

/**
 * The ` DEFAULT …` clause MySQL 8.0.36 prints for `c` in SHOW CREATE TABLE (sql_show.cc
 * print_default_clause): an expression in parentheses, CURRENT_TIMESTAMP with the column's
 * fractional digits, a literal as the column stores it (Field::val_str: `'1'` for TRUE,
 * `'1.00'` for 1 in a DECIMAL(10,2), `'2024-01-02 00:00:00'` for a DATETIME), quoted with `'`
 * and escaped by append_unescaped; BIT values as b'…'; `NULL` for a nullable column without one;
 * nothing for an AUTO_INCREMENT column or a TEXT/BLOB column without an expression.
 */
export function displayDefault(c: ColumnDef): string {
  const d = storedDefault(c);
  switch (d.kind) {
    case 'none':
      return '';
    case 'null':
      return BLOB_LIKE.has(c.baseType.toLowerCase()) ? '' : ' DEFAULT NULL';
    case 'now':
    case 'expression':
      return ` DEFAULT ${d.text}`;
    case 'literal':
      return c.baseType.toLowerCase() === 'bit' ? ` DEFAULT b'${bitString(d.text)}'` : ` DEFAULT ${quoted(d.text)}`;
  }
}

/**
 * DESCRIBE's Default and Extra for `c`: the stored default unquoted (NULL as null), and
 * auto_increment, DEFAULT_GENERATED (a CURRENT_TIMESTAMP or expression default) and
 * `on update CURRENT_TIMESTAMP[(n)]`.
 */
export function describeDefault(c: ColumnDef): { default: string | null; extra: string } {
  const d = storedDefault(c);
  const bit = d.kind === 'literal' && c.baseType.toLowerCase() === 'bit';
  const text = d.kind === 'expression' ? d.text.slice(1, -1) : bit ? `b'${bitString(d.text)}'` : d.kind === 'now' || d.kind === 'literal' ? d.text : null;
  const extra = [c.autoIncrement ? 'auto_increment' : '', d.kind === 'now' || d.kind === 'expression' ? 'DEFAULT_GENERATED' : '', c.onUpdateNow ? `on update ${nowClause(c)}` : ''].filter(Boolean).join(' ');
  return { default: text, extra };
}

/** CURRENT_TIMESTAMP as MySQL prints it for `c`'s DEFAULT and ON UPDATE: with the column's fractional digits. */
export function nowClause(c: ColumnDef): string {
  const fsp = width(c.args[0]);
  return fsp ? `CURRENT_TIMESTAMP(${fsp})` : 'CURRENT_TIMESTAMP';
}

/**
 * A literal default as the value the column is given: a quoted string its text, a number (TRUE,
 * FALSE, b'…' and 0x… too) with its digits kept for the exact store rules.
 */
export function defaultLiteral(e: string): GivenValue {
  const text = literalValue(e);
  const numeric = /^['"]/.test(e) ? undefined : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? text : undefined;
  // X'4142' to a binary string column is the bytes AB (column-values.ts storeBinary)
  const hex = /^x'((?:[0-9a-f]{2})*)'$/i.exec(e);
  if (hex && numeric !== undefined) return { value: Number(numeric), numeric, bytes: Buffer.from(hex[1]!, 'hex') };
  return numeric !== undefined ? { value: Number(numeric), numeric } : { value: text };
}

/** A literal default in the column's stored form (Field::val_str), or as written when the column would refuse it (a definition stored before defaults were checked). */
function storedDefaultText(c: ColumnDef, e: string): string {
  const given = defaultLiteral(e);
  try {
    return String(storeValue(c, storeKind(c), given, 1, true));
  } catch (err) {
    if (err instanceof StoreError) return String(given.value);
    throw err;
  }
}

/** The text of a literal default: a quoted string's value, TRUE/FALSE as 1/0, b'…' and 0x… as numbers, numbers as written. */
function literalValue(e: string): string {
  // read as MySQL reads any literal: 'r\Zs\%' is r␚s\% (a default set by ALTER … SET DEFAULT is kept as written)
  if (/^(['"])[\s\S]*\1$/.test(e) && e.length > 1) return stringValue(e);
  if (/^true$/i.test(e)) return '1';
  if (/^false$/i.test(e)) return '0';
  const bits = /^b'([01]*)'$/i.exec(e);
  if (bits) return String(parseInt(bits[1] || '0', 2));
  const hex = /^(?:0x([0-9a-f]+)|x'([0-9a-f]*)')$/i.exec(e);
  if (hex) return String(parseInt(hex[1] ?? hex[2] ?? '0', 16));
  return e.replace(/^\+/, '');
}

function bitString(v: string): string {
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n).toString(2) : v;
}

/** A string literal as SHOW CREATE TABLE prints it (append_unescaped escapes what a quoted literal cannot hold). */
export function quoted(s: string): string {
  // eslint-disable-next-line no-control-regex -- \0 and \x1a (Ctrl-Z) are what append_unescaped escapes
  return "'" + s.replace(/[\\'\n\r\0\x1a]/g, (ch) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\0': '\\0', '\x1a': '\\Z' })[ch]!) + "'";
}
