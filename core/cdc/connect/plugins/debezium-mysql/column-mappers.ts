/**
 * Debezium's column mappers (io.debezium.relational.mapping at tag v1.9.8.Final), matched against
 * `<db>.<table>.<column>`: `column.truncate.to.N.chars` (TruncateStrings),
 * `column.mask.with.N.chars` (MaskStrings with N asterisks), `column.propagate.source.type`
 * (PropagateSourceTypeToSchemaParameter; `datatype.propagate.source.type` matches
 * `<db>.<table>.<TYPE NAME>` instead) and `column.mask.hash[.v2].<algorithm>.with.salt.<salt>`
 * (MaskStrings hashing). The first rule that matches a column applies, in that order
 * (ColumnMappers.create adds them so). A mapper changes the value after its type conversion and
 * adds parameters to the field's schema; keys are never mapped.
 */
import { createHash, getHashes } from 'node:crypto';
import type { Schema } from '../../plugin.js';
import type { ColumnLike } from './column-types.js';
import { regexList } from './regex-list.js';
import { sourceColumnType } from './source-column-type.js';

export interface ColumnMapper {
  /** The field schema as the mapper leaves it (ColumnMapper.alterFieldSchema). */
  alterSchema(schema: Schema): Schema;
  /** Applied to the converted value; absent: the value passes (ValueConverter.passthrough). */
  convert?: (value: unknown) => unknown;
}

interface Rule {
  columns: RegExp[];
  /** What the patterns match: the column's `<db>.<table>.<column>` or its `<db>.<table>.<TYPE NAME>` (mapByDatatype). */
  by?: 'column' | 'datatype';
  mapper: (col: ColumnLike) => ColumnMapper;
}

/** MaskStrings.create: only these JDBC types are masked. */
const STRING_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'nchar', 'nvarchar', 'national char', 'national varchar']);

/** Column.length() as Debezium's MySQL DDL parser sets it: the declared length, else unset (-1). */
function lengthOf(col: ColumnLike): number {
  return col.args.length && /^\d+$/.test(col.args[0]!) ? Number(col.args[0]) : -1;
}

function truncate(max: number): (col: ColumnLike) => ColumnMapper {
  if (max <= 0) throw new Error('Maximum length must be positive');
  return (col) => {
    const len = lengthOf(col);
    // TruncateStrings.isTruncationPossible: the length is unknown or longer than the limit
    if (!(len < 0 || len > max)) return { alterSchema: (s) => s };
    return {
      alterSchema: (s) => ({ ...s, parameters: { ...s.parameters, truncateLength: String(max) } }),
      convert: (v) => (typeof v === 'string' && v.length > max ? v.slice(0, max) : v),
    };
  };
}

function mask(value: string | ((v: unknown) => unknown), truncateToLength: boolean): (col: ColumnLike) => ColumnMapper {
  return (col) => {
    const alterSchema = (s: Schema): Schema => ({ ...s, parameters: { ...s.parameters, masked: 'true' } });
    if (!STRING_TYPES.has(col.baseType)) return { alterSchema };
    const len = lengthOf(col);
    const hashed = typeof value === 'string' ? () => value : value;
    // MaskingValueConverter answers its mask whatever the value, null included
    const convert = truncateToLength && len > 0 ? (v: unknown) => (hashed(v) as string | null)?.slice(0, len) ?? null : hashed;
    return { alterSchema, convert };
  };
}

/** PropagateSourceTypeToSchemaParameter.alterFieldSchema: the source type in the field's schema parameters. */
function propagateSourceType(col: ColumnLike): ColumnMapper {
  const { typeName, length, scale } = sourceColumnType(col);
  const added: Record<string, string> = { '__debezium.source.column.type': typeName.toUpperCase() };
  if (length !== null) added['__debezium.source.column.length'] = String(length);
  if (scale !== null) added['__debezium.source.column.scale'] = String(scale);
  if (col.comment) added['__debezium.source.column.comment'] = col.comment;
  return { alterSchema: (s) => ({ ...s, parameters: { ...s.parameters, ...added } }) };
}

/** MessageDigest.getInstance names (SHA-256, SHA3-256, MD5) → Node's. */
function nodeAlgorithm(java: string): string {
  const a = java.toLowerCase();
  const name = /^sha-\d+$/.test(a) ? a.replace('-', '') : a;
  if (!getHashes().includes(name)) throw new Error(`java.security.NoSuchAlgorithmException: ${java} MessageDigest not available`);
  return name;
}

/** ObjectOutputStream.writeObject of a String: stream header, TC_STRING, length, modified UTF-8. */
function javaSerializedString(s: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c <= 0x7f) bytes.push(c);
    else if (c <= 0x7ff) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  const head = bytes.length <= 0xffff ? [0xac, 0xed, 0x00, 0x05, 0x74, bytes.length >> 8, bytes.length & 0xff] : [0xac, 0xed, 0x00, 0x05, 0x7c, 0, 0, 0, 0, bytes.length >>> 24, (bytes.length >> 16) & 0xff, (bytes.length >> 8) & 0xff, bytes.length & 0xff];
  return Buffer.from([...head, ...bytes]);
}

/** HashValueConverter: hex of digest(salt + the value's bytes); V1 hashes Java's serialized form, V2 the UTF-8 text. */
function hasher(algorithm: string, salt: string, v2: boolean): (v: unknown) => unknown {
  const alg = nodeAlgorithm(algorithm);
  return (v) => {
    if (v === null || v === undefined) return null;
    const text = String(v);
    return createHash(alg)
      .update(Buffer.from(salt, 'utf8'))
      .update(v2 ? Buffer.from(text, 'utf8') : javaSerializedString(text))
      .digest('hex');
  };
}

/** The mapper rules of a connector config; empty when it sets none. Throws as Debezium's start does. */
export function columnMapperRules(config: Record<string, string>): Rule[] {
  const truncates: Rule[] = [];
  const masks: Rule[] = [];
  const propagate: Rule[] = [];
  const propagateByType: Rule[] = [];
  const hashes: Rule[] = [];
  const hashesV2: Rule[] = [];
  for (const [k, v] of Object.entries(config)) {
    let m = /^column\.truncate\.to\.(\d+)\.chars$/.exec(k);
    if (m) {
      truncates.push({ columns: regexList(v), mapper: truncate(Number(m[1])) });
      continue;
    }
    m = /^column\.mask\.with\.(\d+)\.chars$/.exec(k);
    if (m) {
      masks.push({ columns: regexList(v), mapper: mask('*'.repeat(Number(m[1])), false) });
      continue;
    }
    if (k === 'column.propagate.source.type') {
      propagate.push({ columns: regexList(v), mapper: propagateSourceType });
      continue;
    }
    if (k === 'datatype.propagate.source.type') {
      propagateByType.push({ columns: regexList(v), by: 'datatype', mapper: propagateSourceType });
      continue;
    }
    m = /^column\.mask\.hash\.(v2\.)?([^.]+)\.with\.salt\.(.+)$/.exec(k);
    if (m) (m[1] ? hashesV2 : hashes).push({ columns: regexList(v), mapper: mask(hasher(m[2]!, m[3]!, !!m[1]), true) });
  }
  return [...truncates, ...masks, ...propagate, ...propagateByType, ...hashes, ...hashesV2];
}

/** ColumnMappers.mapperFor: the first rule matching `<db>.<table>.<column>` (or, by data type, `<db>.<table>.<TYPE NAME>`). */
export function mapperFor(rules: readonly Rule[], db: string, table: string, col: ColumnLike): ColumnMapper | undefined {
  const id = `${db}.${table}.${col.name}`;
  let byType: string | undefined;
  const rule = rules.find((r) => {
    const subject = r.by === 'datatype' ? (byType ??= `${db}.${table}.${sourceColumnType(col).typeName}`) : id;
    return r.columns.some((re) => re.test(subject));
  });
  return rule?.mapper(col);
}
