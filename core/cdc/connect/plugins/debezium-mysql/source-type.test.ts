/**
 * column.propagate.source.type and datatype.propagate.source.type: the MySQL type of a column in
 * its field schema's parameters, and the same type facts in the schema change events' tableChanges.
 * The table and expectations are Debezium 1.9.8's own (MySqlSourceTypeInSchemaIT with
 * ddl/source_type_as_schema_parameter_test.sql, MySqlEnumColumnIT, MySqlTableAndColumnCommentIT).
 */
import { describe, expect, it } from 'vitest';
import type { Schema, SourceRecord } from '../../plugin.js';
import { sourceColumnType } from './source-column-type.js';
import { base, drain, source, task } from './task-harness.test-util.js';

const DDL = `CREATE TABLE dbz_644_source_type_mapped_as_schema_parameter_test (
      id INT AUTO_INCREMENT NOT NULL,
      c1 INT,
      c2 MEDIUMINT,
      c3a NUMERIC(5,2),
      c3b VARCHAR(128),
      f1 FLOAT(10),
      f2 FLOAT(8,4),
      PRIMARY KEY (id)
) DEFAULT CHARSET=utf8`;
const TABLE = 'demo.dbz_644_source_type_mapped_as_schema_parameter_test';

/** The `before` field schemas' parameters of the insert, by column (undefined where there are none). */
async function insertParameters(extra: Record<string, string>): Promise<Record<string, Record<string, string> | undefined>> {
  const src = await source();
  src.executeSync('demo', DDL);
  const t = await task(src, { ...base, 'table.include.list': TABLE, 'snapshot.mode': 'never', 'include.schema.changes': 'false', ...extra });
  // the IT's row (its VALUES (default, …) written with a column list)
  src.executeSync('demo', "INSERT INTO dbz_644_source_type_mapped_as_schema_parameter_test (c1, c2, c3a, c3b, f1, f2) VALUES (123, 456, 789.01, 'test', 1.228, 234.56)");
  const [insert] = (await drain(t)).filter((r) => r.topic === `dbserver1.${TABLE}`);
  const before = (insert!.valueSchema as Schema).fields!.find((f) => f.field === 'before')!;
  return Object.fromEntries(before.fields!.map((f) => [f.field!, f.parameters]));
}

const type = (name: string, length?: string, scale?: string) => ({
  '__debezium.source.column.type': name,
  ...(length !== undefined ? { '__debezium.source.column.length': length } : {}),
  ...(scale !== undefined ? { '__debezium.source.column.scale': scale } : {}),
});

describe('the source column type in the value schema', () => {
  it('column.propagate.source.type: name, and length and scale where the column has them (shouldPropagateSourceTypeAsSchemaParameter)', async () => {
    const p = await insertParameters({ 'column.propagate.source.type': '.*\\.c1,.*\\.c2,.*\\.c3.*,.*\\.f.' });
    expect(p.id).toBeUndefined();
    expect(p.c1).toEqual(type('INT'));
    expect(p.c2).toEqual(type('MEDIUMINT'));
    // the decimal's own parameters come first, as the converter's schema builder set them
    expect(p.c3a).toEqual({ scale: '2', 'connect.decimal.precision': '5', ...type('NUMERIC', '5', '2') });
    expect(p.c3b).toEqual(type('VARCHAR', '128'));
    expect(p.f1).toEqual(type('FLOAT', '10'));
    expect(p.f2).toEqual(type('FLOAT', '8', '4'));
  });

  it('datatype.propagate.source.type matches <db>.<table>.<TYPE NAME> (shouldPropagateSourceTypeByDatatype)', async () => {
    const p = await insertParameters({ 'datatype.propagate.source.type': '.+\\.FLOAT,.+\\.VARCHAR' });
    expect([p.id, p.c1, p.c2]).toEqual([undefined, undefined, undefined]);
    expect(p.c3a).not.toHaveProperty('__debezium.source.column.type');
    expect(p.c3b).toEqual(type('VARCHAR', '128'));
    expect(p.f1).toEqual(type('FLOAT', '10'));
    expect(p.f2).toEqual(type('FLOAT', '8', '4'));
  });

  it('a column matched by an earlier rule (column.truncate) gets only that rule, as ColumnMappers.mapperFor takes the first', async () => {
    const p = await insertParameters({ 'column.truncate.to.3.chars': '.*\\.c3b', 'column.propagate.source.type': '.*\\.c3b,.*\\.c1' });
    expect(p.c3b).toEqual({ truncateLength: '3' });
    expect(p.c1).toEqual(type('INT'));
  });

  it('ENUM has length 1 and SET its options and commas; a comment is passed on', async () => {
    const src = await source();
    src.executeSync('demo', "CREATE TABLE stations (id int primary key, type ENUM('station','post_office') NOT NULL COMMENT 'kind of stop', days SET('mo','tu','we'))");
    const t = await task(src, { ...base, 'table.include.list': 'demo.stations', 'snapshot.mode': 'never', 'include.schema.changes': 'false', 'column.propagate.source.type': 'demo.stations.(type|days)' });
    src.executeSync('demo', "INSERT INTO stations VALUES (1, 'station', 'mo,we')");
    const [insert] = (await drain(t)).filter((r: SourceRecord) => r.topic === 'dbserver1.demo.stations');
    const after = (insert!.valueSchema as Schema).fields!.find((f) => f.field === 'after')!.fields!;
    expect(after.find((f) => f.field === 'type')!.parameters).toEqual({ allowed: 'station,post_office', ...type('ENUM', '1'), '__debezium.source.column.comment': 'kind of stop' });
    expect(after.find((f) => f.field === 'days')!.parameters).toEqual({ allowed: 'mo,tu,we', ...type('SET', '5') });
  });
});

describe("Debezium's type facts of a column (MySqlAntlrDdlParser, v1.9.8)", () => {
  const col = (baseType: string, args: string[] = [], unsigned = false) => ({ name: 'c', baseType, args, unsigned, nullable: true, defaultExpr: null });
  it('names, java.sql.Types codes, lengths and scales as its resolver entries give them', () => {
    expect(sourceColumnType(col('int', [], true))).toEqual({ typeName: 'INT UNSIGNED', jdbcType: 4, length: null, scale: null });
    // TINYINT is registered as Types.SMALLINT; BOOL as Types.BOOLEAN
    expect(sourceColumnType(col('tinyint', ['1']))).toEqual({ typeName: 'TINYINT', jdbcType: 5, length: 1, scale: null });
    expect(sourceColumnType(col('bool'))).toEqual({ typeName: 'BOOL', jdbcType: 16, length: null, scale: null });
    // the DECIMAL family's default dimension is (10, 0); NUMERIC is Types.NUMERIC
    expect(sourceColumnType(col('decimal'))).toEqual({ typeName: 'DECIMAL', jdbcType: 3, length: 10, scale: 0 });
    expect(sourceColumnType(col('decimal', ['7']))).toEqual({ typeName: 'DECIMAL', jdbcType: 3, length: 7, scale: 0 });
    expect(sourceColumnType(col('numeric', ['5', '2']))).toEqual({ typeName: 'NUMERIC', jdbcType: 2, length: 5, scale: 2 });
    expect(sourceColumnType(col('real'))).toEqual({ typeName: 'REAL', jdbcType: 7, length: null, scale: null });
    expect(sourceColumnType(col('datetime', ['3']))).toEqual({ typeName: 'DATETIME', jdbcType: 93, length: 3, scale: null });
    expect(sourceColumnType(col('blob'))).toEqual({ typeName: 'BLOB', jdbcType: 2004, length: null, scale: null });
    expect(sourceColumnType(col('mediumblob'))).toEqual({ typeName: 'MEDIUMBLOB', jdbcType: 2004, length: null, scale: null });
    expect(sourceColumnType(col('serial'))).toEqual({ typeName: 'BIGINT UNSIGNED', jdbcType: -5, length: null, scale: null });
    expect(sourceColumnType(col('json'))).toEqual({ typeName: 'JSON', jdbcType: 1111, length: null, scale: null });
  });
});

describe('the Connect type follows where the column definition came from', () => {
  const fieldTypes = (r: SourceRecord) => Object.fromEntries((r.valueSchema as Schema).fields!.find((f) => f.field === 'after')!.fields!.map((f) => [f.field, f.type]));
  const DDL_AS_WRITTEN = 'CREATE TABLE gadgets (id int primary key, flag BOOL DEFAULT TRUE, ratio REAL, n INTEGER UNSIGNED, m INT UNSIGNED, w SMALLINT UNSIGNED ZEROFILL, z INT ZEROFILL)';

  it('read from the binlog as written: BOOL is a boolean, REAL a float32, INTEGER UNSIGNED and INT ZEROFILL int32 (only "INT UNSIGNED" widens)', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'table.include.list': 'demo.gadgets', 'snapshot.mode': 'never', 'include.schema.changes': 'false' });
    src.executeSync('demo', DDL_AS_WRITTEN);
    src.executeSync('demo', 'INSERT INTO gadgets VALUES (1, 2, 0.30000000000000004, 7, 8, 9, 10)');
    const [insert] = (await drain(t)).filter((r) => r.topic === 'dbserver1.demo.gadgets');
    expect(fieldTypes(insert!)).toEqual({ id: 'int32', flag: 'boolean', ratio: 'float32', n: 'int32', m: 'int64', w: 'int32', z: 'int32' });
    // any non-zero number is true (convertBoolean); a float prints as Java's Float.toString does
    expect((insert!.value as { after: Record<string, unknown> }).after).toEqual({ id: 1, flag: true, ratio: 0.3, n: 7, m: 8, w: 9, z: 10 });
    const flag = (insert!.valueSchema as Schema).fields!.find((f) => f.field === 'after')!.fields!.find((f) => f.field === 'flag')!;
    expect(flag.default).toBe(true);
  });

  it('read by a snapshot from SHOW CREATE TABLE: tinyint(1) is an int16 and double a float64; a later ALTER keeps the columns it does not define', async () => {
    const src = await source();
    src.executeSync('demo', DDL_AS_WRITTEN);
    src.executeSync('demo', 'INSERT INTO gadgets VALUES (1, 1, 0.5, 7, 8, 9, 10)');
    const t = await task(src, { ...base, 'table.include.list': 'demo.gadgets', 'include.schema.changes': 'false' });
    const [row] = await drain(t);
    // SHOW CREATE TABLE: tinyint(1) DEFAULT '1', double, int unsigned, int unsigned, smallint(5) unsigned zerofill, int(10) unsigned zerofill
    expect(fieldTypes(row!)).toEqual({ id: 'int32', flag: 'int16', ratio: 'float64', n: 'int64', m: 'int64', w: 'int32', z: 'int64' });
    expect((row!.valueSchema as Schema).fields!.find((f) => f.field === 'after')!.fields!.find((f) => f.field === 'flag')!.default).toBe(1);
    expect((row!.value as { after: Record<string, unknown> }).after).toMatchObject({ flag: 1, ratio: 0.5 });
    src.executeSync('demo', 'ALTER TABLE gadgets ADD COLUMN extra BOOL');
    src.executeSync('demo', 'INSERT INTO gadgets (id, flag, extra) VALUES (2, 1, 1)');
    const [insert] = (await drain(t)).filter((r) => r.topic === 'dbserver1.demo.gadgets');
    expect(fieldTypes(insert!)).toEqual({ id: 'int32', flag: 'int16', ratio: 'float64', n: 'int64', m: 'int64', w: 'int32', z: 'int64', extra: 'boolean' });
  });
});

describe('schema change events of streamed DDL', () => {
  it("carry the table as the task holds it: a snapshot's tinyint(1) stays TINYINT beside an added BOOL", async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE gadgets (id int primary key, flag BOOL)');
    const t = await task(src, { ...base, 'table.include.list': 'demo.gadgets' });
    await drain(t, 10, true);
    src.executeSync('demo', 'ALTER TABLE gadgets ADD COLUMN extra BOOL');
    const [ev] = (await drain(t, 10, true)).filter((r) => r.topic === 'dbserver1');
    const change = (ev!.value as { ddl: string; tableChanges: { type: string; table: { columns: { name: string; typeName: string; jdbcType: number; length: number | null }[] } }[] });
    expect(change.ddl).toBe('ALTER TABLE gadgets ADD COLUMN extra BOOL');
    expect(change.tableChanges[0]!.type).toBe('ALTER');
    expect(change.tableChanges[0]!.table.columns.map((c) => [c.name, c.typeName, c.jdbcType, c.length])).toEqual([
      ['id', 'INT', 4, null],
      ['flag', 'TINYINT', 5, 1],
      ['extra', 'BOOL', 16, null],
    ]);
  });
});
