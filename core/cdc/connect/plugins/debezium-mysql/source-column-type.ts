/**
 * A column's type as Debezium 1.9.8's MySQL DDL parser records it in its Column (tag
 * v1.9.8.Final: MySqlAntlrDdlParser.initializeDataTypeResolver, DataTypeResolver.resolveDataType,
 * ColumnDefinitionParserListener.resolveColumnDataType): the type name as written, upper-cased,
 * with the SIGNED/UNSIGNED/ZEROFILL words that follow it; the java.sql.Types code of its resolver
 * entry; the length and scale written in its parentheses, with the entry's defaults (10, 0 for the
 * DECIMAL family) and ENUM's 1 and SET's options-and-commas. This is what schema change events
 * (tableChanges) and column.propagate.source.type show.
 */
import type { ColumnLike } from './column-types.js';

export interface SourceColumnType {
  typeName: string;
  jdbcType: number;
  /** Column.length(); null when unset (-1). */
  length: number | null;
  /** Column.scale(); null when absent. */
  scale: number | null;
}

/** The java.sql.Types codes used here. */
export const JDBC_TYPES = {
  BIT: -7, TINYINT: -6, SMALLINT: 5, INTEGER: 4, BIGINT: -5, FLOAT: 6, REAL: 7, DOUBLE: 8, NUMERIC: 2, DECIMAL: 3,
  CHAR: 1, VARCHAR: 12, NCHAR: -15, NVARCHAR: -9, DATE: 91, TIME: 92, TIMESTAMP: 93, TIMESTAMP_WITH_TIMEZONE: 2014,
  BINARY: -2, VARBINARY: -3, BLOB: 2004, BOOLEAN: 16, OTHER: 1111,
} as const;

const T = JDBC_TYPES;
/** java.sql.Types of each resolver entry (keyed by its tokens as the source stores the type). */
const JDBC: Record<string, number> = {
  char: T.CHAR, varchar: T.VARCHAR, tinytext: T.VARCHAR, text: T.VARCHAR, mediumtext: T.VARCHAR, longtext: T.VARCHAR, nchar: T.NCHAR, nvarchar: T.NVARCHAR,
  tinyint: T.SMALLINT, int1: T.SMALLINT, smallint: T.SMALLINT, int2: T.SMALLINT, mediumint: T.INTEGER, int3: T.INTEGER, middleint: T.INTEGER, int: T.INTEGER, integer: T.INTEGER, int4: T.INTEGER, bigint: T.BIGINT, int8: T.BIGINT,
  real: T.REAL, double: T.DOUBLE, 'double precision': T.DOUBLE, float8: T.DOUBLE, float: T.FLOAT, float4: T.FLOAT, decimal: T.DECIMAL, dec: T.DECIMAL, fixed: T.DECIMAL, numeric: T.NUMERIC,
  bit: T.BIT, time: T.TIME, timestamp: T.TIMESTAMP_WITH_TIMEZONE, datetime: T.TIMESTAMP, binary: T.BINARY, varbinary: T.VARBINARY, blob: T.BLOB, year: T.INTEGER,
  date: T.DATE, tinyblob: T.BLOB, mediumblob: T.BLOB, longblob: T.BLOB, bool: T.BOOLEAN, boolean: T.BOOLEAN, serial: T.BIGINT,
  enum: T.CHAR, set: T.CHAR,
};

/** Entries with SIGNED/UNSIGNED/ZEROFILL suffix tokens (the numeric ones; DOUBLE's PRECISION is kept in the stored type). */
const NUMERIC = new Set(['tinyint', 'int1', 'smallint', 'int2', 'mediumint', 'int3', 'middleint', 'int', 'integer', 'int4', 'bigint', 'int8', 'real', 'double', 'double precision', 'float8', 'float', 'float4', 'decimal', 'dec', 'fixed', 'numeric']);
/** setDefaultLengthScaleDimension(10, 0). */
const DECIMAL_FAMILY = new Set(['decimal', 'dec', 'fixed', 'numeric']);
/** Types whose parentheses hold no length (simple, spatial and JSON types). */
const NO_DIMENSION = new Set(['date', 'tinyblob', 'mediumblob', 'longblob', 'bool', 'boolean', 'serial', 'json', 'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'geomcollection']);

const number = (s: string | undefined): number | null => (s !== undefined && /^\d+$/.test(s.trim()) ? Number(s) : null);

export function sourceColumnType(col: ColumnLike): SourceColumnType {
  const base = col.baseType.toLowerCase();
  // SERIAL is an alias for BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
  if (base === 'serial') return { typeName: 'BIGINT UNSIGNED', jdbcType: T.BIGINT, length: null, scale: null };
  const jdbcType = JDBC[base] ?? T.OTHER;
  if (base === 'enum') return { typeName: 'ENUM', jdbcType, length: 1, scale: null };
  if (base === 'set') return { typeName: 'SET', jdbcType, length: Math.max(0, col.args.length * 2 - 1), scale: null };
  let typeName = base.toUpperCase();
  if (NUMERIC.has(base)) {
    if (col.unsigned) typeName += ' UNSIGNED';
    if (col.zerofill) typeName += ' ZEROFILL';
  }
  if (NO_DIMENSION.has(base)) return { typeName, jdbcType, length: null, scale: null };
  let length = number(col.args[0]);
  let scale = number(col.args[1]);
  if (DECIMAL_FAMILY.has(base)) {
    length ??= 10;
    scale ??= 0;
  }
  return { typeName, jdbcType, length, scale };
}
