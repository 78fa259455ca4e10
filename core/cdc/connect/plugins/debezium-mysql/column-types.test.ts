/**
 * ENUM and SET members and string defaults with MySQL's escapes, in the schemas the connector
 * writes (column-types.ts), for columns as the embedded source's CREATE TABLE keeps them.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTable } from '../../../source/mysql-ddl.js';
import { columnConverter, columnSchema, type TypeModes } from './column-types.js';

const columns = (ddl: string) => parseCreateTable(ddl).def.columns;

describe('members and defaults with escapes', () => {
  // MySqlAntlrDdlParser.extractEnumAndSetOptions (Debezium): the member's text in SHOW CREATE TABLE
  // (append_unescaped), quotes stripped, a comma escaped as \, and \' and '' undone (escapeOption)
  it("io.debezium.data.Enum's allowed lists each member as Debezium reads it from SHOW CREATE TABLE", () => {
    const [e] = columns("CREATE TABLE t (e ENUM('n\\nl', 'a\\\\b', 'q''s', 'it\\'s', 'c,d', 'x\\ty', 'p\\%q'))");
    expect(columnSchema(e!, 'precise').parameters).toEqual({ allowed: "n\\nl,a\\\\b,q's,it's,c\\,d,x\ty,p\\\\%q" });
  });

  it("io.debezium.data.EnumSet's allowed alike", () => {
    const [s] = columns("CREATE TABLE t (s SET('r\\rt', 'z\\Zz', 'n\\0l'))");
    expect(columnSchema(s!, 'precise').parameters).toEqual({ allowed: 'r\\rt,z\\Zz,n\\0l' });
  });

  it('a string default is the value MySQL stores: its escapes read, a doubled quote one quote', () => {
    const cols = columns("CREATE TABLE t (a VARCHAR(9) DEFAULT 'a\\nb', b VARCHAR(9) DEFAULT 'it''s', c VARCHAR(9) DEFAULT 'a\\\\b\\Z', d VARCHAR(9) DEFAULT \"x\\ty\")");
    expect(cols.map((c) => columnSchema(c, 'precise').default)).toEqual(['a\nb', "it's", 'a\\b\x1a', 'x\ty']);
  });
});

describe('BIGINT beyond 2^53 (the source hands it out as a bigint)', () => {
  const modes = (bigintUnsigned: TypeModes['bigintUnsigned']): TypeModes => ({ decimal: 'precise', timePrecision: 'adaptive_time_microseconds', bigintUnsigned });
  const convert = (ddl: string, m: TypeModes) =>
    columns(ddl).map((c) => {
      const s = columnSchema(c, m);
      return { schema: s, convert: columnConverter(c, s, m) };
    });

  it('an INT64 keeps every digit: a bigint stays a bigint, a safe one becomes a number, a DEFAULT text is read exactly', () => {
    const [id, dflt] = convert('CREATE TABLE t (id BIGINT NOT NULL, d BIGINT DEFAULT 4611686018427387907)', modes('long'));
    expect(id!.convert(4611686018427387907n)).toBe(4611686018427387907n);
    expect(id!.convert(-9223372036854775808n)).toBe(-9223372036854775808n);
    expect(id!.convert(42n)).toBe(42);
    expect(id!.convert(42)).toBe(42);
    expect(dflt!.schema.default).toBe(4611686018427387907n);
  });

  it('BIGINT UNSIGNED: long mode takes the low 64 bits as a Java long (2^64 - 1 is -1), precise mode the exact Decimal', () => {
    const [long] = convert('CREATE TABLE t (u BIGINT UNSIGNED)', modes('long'));
    expect(long!.schema.type).toBe('int64');
    expect(long!.convert(18446744073709551615n)).toBe(-1);
    expect(long!.convert(9223372036854775809n)).toBe(-9223372036854775807n);
    expect(long!.convert(4611686018427387907n)).toBe(4611686018427387907n);
    const [precise] = convert('CREATE TABLE t (u BIGINT UNSIGNED)', modes('precise'));
    // the unsigned value's two's-complement bytes: 00 ff ff ff ff ff ff ff ff
    expect(Buffer.from(precise!.convert(18446744073709551615n) as string, 'base64').toString('hex')).toBe('00ffffffffffffffff');
  });
});

describe('decimal.handling.mode=string', () => {
  const m: TypeModes = { decimal: 'string', timePrecision: 'adaptive_time_microseconds', bigintUnsigned: 'long' };
  const convert = (ddl: string) =>
    columns(ddl).map((c) => {
      const s = columnSchema(c, m);
      return { schema: s, convert: columnConverter(c, s, m) };
    });

  it("is BigDecimal.toPlainString() at the column's scale, every digit kept (a double kept 17)", () => {
    const [wide, plain, whole] = convert('CREATE TABLE t (w DECIMAL(30,2), p DECIMAL(10,3), z DECIMAL(20,0))');
    expect(wide!.schema.type).toBe('string');
    expect(wide!.convert('1234567890123456789012345678.91')).toBe('1234567890123456789012345678.91');
    expect(wide!.convert('-0.05')).toBe('-0.05');
    expect(plain!.convert('12.5')).toBe('12.500');
    expect(plain!.convert('-0.000')).toBe('0.000');
    expect(whole!.convert('98765432109876543210')).toBe('98765432109876543210');
    expect(whole!.convert(42)).toBe('42');
  });
});
