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

/** java.sql.Types of each resolver entry (keyed by the entry's first token). */
const JDBC: Record<string, number> = {
  char: 1, varchar: 12, tinytext: 12, text: 12, mediumtext: 12, longtext: 12, nchar: -15, nvarchar: -9,
  tinyint: 5, int1: 5, smallint: 5, int2: 5, mediumint: 4, int3: 4, middleint: 4, int: 4, integer: 4, int4: 4, bigint: -5, int8: -5,
  real: 7, double: 8, float8: 8, float: 6, float4: 6, decimal: 3, dec: 3, fixed: 3, numeric: 2,
  bit: -7, time: 92, timestamp: 2014, datetime: 93, binary: -2, varbinary: -3, blob: 2004, year: 4,
  date: 91, tinyblob: 2004, mediumblob: 2004, longblob: 2004, bool: 16, boolean: 16, serial: -5,
  enum: 1, set: 1,
};

/** Entries with SIGNED/UNSIGNED/ZEROFILL suffix tokens (the numeric ones). */
const NUMERIC = new Set(['tinyint', 'int1', 'smallint', 'int2', 'mediumint', 'int3', 'middleint', 'int', 'integer', 'int4', 'bigint', 'int8', 'real', 'double', 'float8', 'float', 'float4', 'decimal', 'dec', 'fixed', 'numeric']);
/** setDefaultLengthScaleDimension(10, 0). */
const DECIMAL_FAMILY = new Set(['decimal', 'dec', 'fixed', 'numeric']);
/** Types whose parentheses hold no length (simple, spatial and JSON types). */
const NO_DIMENSION = new Set(['date', 'tinyblob', 'mediumblob', 'longblob', 'bool', 'boolean', 'serial', 'json', 'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'geomcollection']);

const number = (s: string | undefined): number | null => (s !== undefined && /^\d+$/.test(s.trim()) ? Number(s) : null);

export function sourceColumnType(col: ColumnLike): SourceColumnType {
  const base = col.baseType.toLowerCase();
  // SERIAL is an alias for BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
  if (base === 'serial') return { typeName: 'BIGINT UNSIGNED', jdbcType: -5, length: null, scale: null };
  const jdbcType = JDBC[base] ?? 1111;
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
