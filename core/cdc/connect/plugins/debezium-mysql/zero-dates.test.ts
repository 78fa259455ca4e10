/**
 * Zero dates in Debezium's events. The binlog deserializers and the snapshot's text reader both
 * read a DATE or DATETIME with a zero year, month or day as null (RowDeserializers,
 * containsZeroValuesInDatePart); JdbcValueConverters then writes null for a nullable column and,
 * for a NOT NULL one, the schema's default or else the epoch. A zero TIMESTAMP is the epoch second
 * 0 in the binlog (1970-01-01T00:00:00Z) but a zero date in the snapshot's text. A zero DEFAULT
 * is no default for a nullable column and the epoch for a NOT NULL one (MySqlDefaultValueConverter).
 */
import { describe, expect, it } from 'vitest';
import type { Schema, SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Env = { op: string; after: Record<string, unknown> | null };
const after = (r: SourceRecord) => (r.value as Env).after;
const field = (r: SourceRecord, name: string): Schema => (r.valueSchema!.fields!.find((f) => f.field === 'after')!.fields ?? []).find((f) => f.field === name)!;

const TABLE = `SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO';
  CREATE TABLE z (id INT PRIMARY KEY,
    d DATE, dn DATE NOT NULL, dd DATE NOT NULL DEFAULT '2000-01-01',
    dt DATETIME(3) NOT NULL DEFAULT '0000-00-00 00:00:00.000', dtn DATETIME,
    ts TIMESTAMP NULL, tsn TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00');
  INSERT INTO z VALUES (1, '0000-00-00', '2024-00-05', '0000-00-00', '0000-00-00', '2024-05-00 10:00:00', '0000-00-00', '0000-00-00')`;
const ZEROED = { id: 1, d: null, dn: 0, dd: 10957, dt: 0, dtn: null };

describe('zero dates in the events', () => {
  it('snapshot: null where the column takes one, else the default or the epoch; a zero TIMESTAMP is a zero date too', async () => {
    const src = await source();
    src.executeSync('demo', TABLE);
    const t = await task(src, { ...base, 'table.include.list': 'demo.z', 'snapshot.mode': 'initial' });
    const read = (await drain(t, 20)).find((r) => (r.value as Env).op === 'r')!;
    expect(after(read)).toEqual({ ...ZEROED, ts: null, tsn: '1970-01-01T00:00:00Z' });
    // the schemas' defaults: none for a nullable zero default, the epoch for a NOT NULL one
    expect(field(read, 'dd')).toMatchObject({ name: 'io.debezium.time.Date', optional: false, default: 10957 });
    expect(field(read, 'dt')).toMatchObject({ name: 'io.debezium.time.Timestamp', optional: false, default: 0 });
    expect(field(read, 'tsn')).toMatchObject({ name: 'io.debezium.time.ZonedTimestamp', optional: false, default: '1970-01-01T00:00:00Z' });
  });

  it('streaming: the same for DATE and DATETIME; a zero TIMESTAMP is the epoch, nullable or not', async () => {
    const src = await source();
    src.executeSync('demo', "SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'; CREATE TABLE w (id INT PRIMARY KEY, d DATE)");
    const t = await task(src, { ...base, 'table.include.list': 'demo.z', 'snapshot.mode': 'initial' });
    await drain(t, 20);
    src.executeSync('demo', TABLE);
    const [c] = await drain(t, 20);
    expect((c!.value as Env).op).toBe('c');
    expect(after(c!)).toEqual({ ...ZEROED, ts: '1970-01-01T00:00:00Z', tsn: '1970-01-01T00:00:00Z' });
    src.executeSync('demo', "UPDATE z SET d = '2024-01-02', ts = '2024-01-02 03:04:05' WHERE id = 1");
    const [u] = await drain(t, 20);
    expect(after(u!)).toMatchObject({ d: 19724, ts: '2024-01-02T03:04:05Z', dn: 0 });
  });
});
