/**
 * The MySQL connector's options beyond the seed's, as Debezium 1.9.8 applies them: column
 * filters, message.key.columns, skipped.operations, time.precision.mode=connect,
 * bigint.unsigned.handling.mode=precise, provide.transaction.metadata and heartbeats.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { validateConfig } from './config.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Envelope = { before: Record<string, unknown> | null; after: Record<string, unknown> | null; op: string; transaction: unknown };
const env = (r: SourceRecord) => r.value as Envelope;
const validate = async (extra: Record<string, string>) => validateConfig({ ...base, ...extra }) as Record<string, string[] | undefined>;

describe('column.include.list / column.exclude.list', () => {
  it('leave columns out of before, after and the value schema; the key keeps its columns', async () => {
    const src = await source();
    let name = 'Ada';
    const filters: Record<string, string>[] = [{ 'column.exclude.list': 'demo.customers.created_at' }, { 'column.include.list': 'demo\\.customers\\.(ID|name)' }];
    for (const filter of filters) {
      const t = await task(src, { ...base, ...filter, 'snapshot.mode': 'schema_only' });
      src.executeSync('demo', `UPDATE customers SET name = '${name}!' WHERE id = 1`);
      const [u] = await drain(t);
      expect(env(u!).before).toEqual({ id: 1, name });
      expect(env(u!).after).toEqual({ id: 1, name: `${name}!` });
      name += '!';
      expect(u!.valueSchema!.fields![0]!.fields!.map((f) => f.field)).toEqual(['id', 'name']);
      expect(u!.key).toEqual({ id: 1 });
      await t.stop();
    }
  });

  it('both lists at once is a validation error, with a bad regex', async () => {
    expect((await validate({ 'column.include.list': 'a', 'column.exclude.list': 'b' }))['column.exclude.list']).toEqual(['The \'column.exclude.list\' value is invalid: "column.include.list" is already specified']);
    expect((await validate({ 'table.include.list': 'a', 'table.exclude.list': 'b' }))['table.exclude.list']).toEqual(['The \'table.exclude.list\' value is invalid: "table.include.list" is already specified']);
    expect((await validate({ 'column.exclude.list': 'demo.(' }))['column.exclude.list']![0]).toMatch(/^The 'column.exclude.list' value 'demo.\(' is invalid: A comma-separated list of valid regular expressions is expected, but /);
  });
});

describe('message.key.columns', () => {
  it('makes the listed columns the key; a change of them is sent as a key change (delete, tombstone, create)', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'message.key.columns': 'demo.customers:name' });
    const snap = await drain(t);
    expect(snap.map((r) => r.key)).toEqual([{ name: 'Ada' }, { name: 'Grace' }]);
    expect(snap[0]!.keySchema).toEqual({ type: 'struct', optional: false, name: 'dbserver1.demo.customers.Key', fields: [{ type: 'string', optional: true, field: 'name' }] });
    src.executeSync('demo', "UPDATE customers SET name = 'Ada L.' WHERE id = 1");
    const recs = await drain(t);
    expect(recs.map((r) => [r.key, r.value === null ? 'tombstone' : env(r).op])).toEqual([
      [{ name: 'Ada' }, 'd'],
      [{ name: 'Ada' }, 'tombstone'],
      [{ name: 'Ada L.' }, 'c'],
    ]);
    await t.stop();
  });

  it('a table the option does not name keeps its primary key; a malformed entry is a validation error', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'message.key.columns': 'demo.other:name' });
    expect((await drain(t)).map((r) => r.key)).toEqual([{ id: 1 }, { id: 2 }]);
    await t.stop();
    expect((await validate({ 'message.key.columns': 'demo.customers' }))['message.key.columns']).toEqual(["The 'message.key.columns' value is invalid: demo.customers has an invalid format (expecting '^\\s*([^\\s:]+):([^:\\s]+)\\s*$')"]);
    expect((await validate({ 'message.key.columns': '' }))['message.key.columns']![0]).toBe("The 'message.key.columns' value is invalid: Must not be empty");
  });
});

describe('skipped.operations', () => {
  it('leaves the listed operations out of streaming (a skipped delete has no tombstone either); the snapshot is untouched', async () => {
    const src = await source();
    const t = await task(src, { ...base, 'skipped.operations': 'u,d' });
    expect((await drain(t)).map((r) => env(r).op)).toEqual(['r', 'r']);
    src.executeSync('demo', "UPDATE customers SET name = 'x' WHERE id = 1; DELETE FROM customers WHERE id = 2; INSERT INTO customers (id, name) VALUES (3, 'Hedy')");
    expect((await drain(t)).map((r) => (r.value === null ? 'tombstone' : env(r).op))).toEqual(['c']);
    await t.stop();
  });

  it('accepts r, c, u, d, t and none alone (CommonConnectorConfig.validateSkippedOperation)', async () => {
    expect((await validate({ 'skipped.operations': 'c, d' }))['skipped.operations']).toBeUndefined();
    expect((await validate({ 'skipped.operations': 'none' }))['skipped.operations']).toBeUndefined();
    expect((await validate({ 'skipped.operations': 'x' }))['skipped.operations']).toEqual(["The 'skipped.operations' value is invalid: Invalid operation"]);
    expect((await validate({ 'skipped.operations': 'none,c' }))['skipped.operations']).toEqual(["The 'skipped.operations' value is invalid: 'none' cannot be specified with other skipped operation types"]);
  });
});

describe('time.precision.mode and bigint.unsigned.handling.mode', () => {
  const table = "CREATE TABLE kinds (id INT PRIMARY KEY, d DATE, tm TIME(6), dt DATETIME(6), big BIGINT UNSIGNED); INSERT INTO kinds VALUES (1, '2024-01-02', '01:02:03.456789', '2024-01-02 03:04:05.123456', 9007199254740991)";
  const fields = (r: SourceRecord) => Object.fromEntries(r.valueSchema!.fields![1]!.fields!.map((f) => [f.field, f.name ?? f.type]));

  it('default: Debezium time types (micro precision), BIGINT UNSIGNED as int64', async () => {
    const src = await source();
    src.executeSync('demo', table);
    const [r] = await drain(await task(src, { ...base, 'table.include.list': 'demo.kinds' }));
    expect(fields(r!)).toEqual({ id: 'int32', d: 'io.debezium.time.Date', tm: 'io.debezium.time.MicroTime', dt: 'io.debezium.time.MicroTimestamp', big: 'int64' });
    expect(env(r!).after).toEqual({ id: 1, d: 19724, tm: 3723456789, dt: 1704164645123456, big: 9007199254740991 });
  });

  it('connect: Kafka Connect Date, Time and Timestamp in milliseconds; precise: BIGINT UNSIGNED as Decimal with scale 0', async () => {
    const src = await source();
    src.executeSync('demo', table);
    const [r] = await drain(await task(src, { ...base, 'table.include.list': 'demo.kinds', 'time.precision.mode': 'connect', 'bigint.unsigned.handling.mode': 'precise' }));
    expect(fields(r!)).toEqual({ id: 'int32', d: 'org.apache.kafka.connect.data.Date', tm: 'org.apache.kafka.connect.data.Time', dt: 'org.apache.kafka.connect.data.Timestamp', big: 'org.apache.kafka.connect.data.Decimal' });
    expect(r!.valueSchema!.fields![1]!.fields![4]).toEqual({ type: 'bytes', optional: true, name: 'org.apache.kafka.connect.data.Decimal', version: 1, parameters: { scale: '0' }, field: 'big' });
    expect(r!.valueSchema!.fields![1]!.fields![2]!.type).toBe('int32');
    // 2^53 - 1 = 0x1F FF FF FF FF FF FF as big-endian two's complement bytes
    expect(env(r!).after).toEqual({ id: 1, d: 19724, tm: 3723456, dt: 1704164645123, big: Buffer.from('1fffffffffffff', 'hex').toString('base64') });
  });

  it('validation: adaptive is refused as in MySqlConnectorConfig, unknown values list the choices', async () => {
    expect((await validate({ 'time.precision.mode': 'adaptive' }))['time.precision.mode']).toEqual(["The 'time.precision.mode' value is invalid: The 'adaptive' time.precision.mode is no longer supported"]);
    expect((await validate({ 'time.precision.mode': 'nanos' }))['time.precision.mode']).toEqual(["The 'time.precision.mode' value is invalid: Value must be one of adaptive, adaptive_time_microseconds, connect"]);
    expect((await validate({ 'bigint.unsigned.handling.mode': 'string' }))['bigint.unsigned.handling.mode']).toEqual(["The 'bigint.unsigned.handling.mode' value is invalid: Value must be one of long, precise"]);
  });
});

describe('provide.transaction.metadata', () => {
  const meta = { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false', 'provide.transaction.metadata': 'true' };

  it('BEGIN and END on <prefix>.transaction around each transaction, and each event\'s place in it', async () => {
    const src = await source();
    const t = await task(src, meta);
    expect(await t.poll()).toEqual([]);
    src.executeSync('demo', "BEGIN; INSERT INTO customers (id, name) VALUES (3, 'Hedy'); UPDATE customers SET name = 'x' WHERE id = 1; COMMIT");
    const gtid = src.readTransactions({ file: '', pos: 0 }, 100).at(-1)!.gtid!;
    const recs = await drain(t);
    expect(recs.map((r) => r.topic)).toEqual(['dbserver1.transaction', 'dbserver1.demo.customers', 'dbserver1.demo.customers', 'dbserver1.transaction']);
    expect(recs[0]).toMatchObject({ key: { id: gtid }, value: { status: 'BEGIN', id: gtid, event_count: null, data_collections: null } });
    expect(recs[0]!.keySchema!.name).toBe('io.debezium.connector.common.TransactionMetadataKey');
    expect(recs[0]!.valueSchema!.name).toBe('io.debezium.connector.common.TransactionMetadataValue');
    expect(env(recs[1]!).transaction).toEqual({ id: gtid, total_order: 1, data_collection_order: 1 });
    expect(env(recs[2]!).transaction).toEqual({ id: gtid, total_order: 2, data_collection_order: 2 });
    expect(recs[3]!.value).toEqual({ status: 'END', id: gtid, event_count: 2, data_collections: [{ data_collection: 'demo.customers', event_count: 2 }] });
    await t.stop();
  });

  it('a restart inside a transaction goes on counting from the stored offset, with no second BEGIN', async () => {
    const src = await source();
    const t = await task(src, { ...meta, 'max.batch.size': '2' });
    // a schema-only snapshot without schema change events sends nothing
    expect(await t.poll()).toEqual([]);
    src.executeSync('demo', "BEGIN; INSERT INTO customers (id, name) VALUES (3, 'Hedy'); INSERT INTO customers (id, name) VALUES (4, 'Rosalind'); COMMIT");
    const first = await t.poll();
    expect(first.map((r) => (r.topic === 'dbserver1.transaction' ? (r.value as { status: string }).status : env(r).op))).toEqual(['BEGIN', 'c']);
    await t.stop();
    const again = await task(src, meta, first[1]!.sourceOffset);
    const rest = await drain(again);
    expect(rest.map((r) => (r.topic === 'dbserver1.transaction' ? (r.value as { status: string }).status : env(r).op))).toEqual(['c', 'END']);
    expect(env(rest[0]!).transaction).toMatchObject({ total_order: 2, data_collection_order: 2 });
    expect((rest[1]!.value as { event_count: number }).event_count).toBe(2);
    await again.stop();
  });
});

describe('heartbeat.interval.ms', () => {
  it('sends <heartbeat.topics.prefix>.<prefix> records while idle, carrying the stream position; a restart from one loses nothing', async () => {
    const src = await source();
    let now = 1_000_000;
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false', 'heartbeat.interval.ms': '1000' }, null, () => now);
    // the end of the snapshot sends one at once (RelationalSnapshotChangeEventSource: alwaysDispatchHeartbeatEvent)
    const pos = src.position();
    expect(await t.poll()).toMatchObject([{ topic: '__debezium-heartbeat.dbserver1', sourceOffset: { file: pos.file, pos: pos.pos, gtids: pos.gtidSet, ts_sec: 1000 } }]);
    expect(await t.poll()).toEqual([]);
    now += 1000;
    const [beat] = await t.poll();
    expect(beat).toMatchObject({ topic: '__debezium-heartbeat.dbserver1', kafkaPartition: 0, key: { serverName: 'dbserver1' }, value: { ts_ms: now } });
    expect(beat!.keySchema!.name).toBe('io.debezium.connector.common.ServerNameKey');
    expect(beat!.valueSchema).toEqual({ type: 'struct', optional: false, name: 'io.debezium.connector.common.Heartbeat', fields: [{ type: 'int64', optional: false, field: 'ts_ms' }] });
    expect(await t.poll()).toEqual([]);
    await t.stop();
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'Hedy')");
    const again = await task(src, { ...base, 'heartbeat.interval.ms': '1000' }, beat!.sourceOffset, () => now);
    expect((await drain(again)).map((r) => [env(r).op, env(r).after?.id])).toEqual([['c', 3]]);
    await again.stop();
  });

  it('waits for a transaction boundary: a poll that stops inside a transaction sends none', async () => {
    const src = await source();
    let now = 1_000_000;
    const t = await task(src, { ...base, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false', 'heartbeat.interval.ms': '1000', 'max.batch.size': '1' }, null, () => now);
    expect((await t.poll()).map((r) => r.topic)).toEqual(['__debezium-heartbeat.dbserver1']);
    src.executeSync('demo', "BEGIN; INSERT INTO customers (id, name) VALUES (3, 'a'); INSERT INTO customers (id, name) VALUES (4, 'b'); COMMIT");
    now += 1000;
    expect((await t.poll()).map((r) => r.topic)).toEqual(['dbserver1.demo.customers']);
    expect((await t.poll()).map((r) => r.topic)).toEqual(['dbserver1.demo.customers', '__debezium-heartbeat.dbserver1']);
    await t.stop();
  });
});

describe('binary.handling.mode', () => {
  it('bytes (base64 in JSON under a bytes schema), base64 and hex (lower case) as strings', async () => {
    const src = await source();
    src.executeSync('demo', "CREATE TABLE blobs (id INT PRIMARY KEY, b VARBINARY(4)); INSERT INTO blobs VALUES (1, x'0AFF')");
    const got: [string, unknown][] = [];
    for (const mode of ['bytes', 'base64', 'hex']) {
      const [r] = await drain(await task(src, { ...base, 'table.include.list': 'demo.blobs', 'binary.handling.mode': mode }));
      got.push([r!.valueSchema!.fields![1]!.fields![1]!.type, env(r!).after!.b]);
    }
    expect(got).toEqual([
      ['bytes', 'Cv8='],
      ['string', 'Cv8='],
      ['string', '0aff'],
    ]);
    expect((await validate({ 'binary.handling.mode': 'raw' }))['binary.handling.mode']).toEqual(["The 'binary.handling.mode' value is invalid: Value must be one of bytes, base64, hex"]);
  });
});

describe('column.truncate.to.N.chars, column.mask.with.N.chars, column.mask.hash (ColumnMappers)', () => {
  const sha256 = async (...parts: Buffer[]) => (await import('node:crypto')).createHash('sha256').update(Buffer.concat(parts)).digest('hex');

  it('truncate: strings longer than N are cut, the schema says truncateLength; the key is never mapped', async () => {
    const src = await source();
    const [r] = await drain(await task(src, { ...base, 'column.truncate.to.2.chars': 'demo.customers.name', 'message.key.columns': 'demo.customers:name' }));
    expect(env(r!).after!.name).toBe('Ad');
    expect(r!.key).toEqual({ name: 'Ada' });
    expect(r!.valueSchema!.fields![1]!.fields![2]).toEqual({ type: 'string', optional: true, parameters: { truncateLength: '2' }, field: 'name' });
  });

  it('mask: string columns become N asterisks (null too, as MaskingValueConverter answers); other types keep their value but are marked masked', async () => {
    const src = await source();
    src.executeSync('demo', 'UPDATE customers SET name = NULL WHERE id = 2');
    const recs = await drain(await task(src, { ...base, 'column.mask.with.4.chars': 'demo\\.customers\\.(name|id)' }));
    expect(recs.map((r) => env(r).after)).toEqual([
      { created_at: 1704164645000, id: 1, name: '****' },
      { created_at: 1704164646000, id: 2, name: '****' },
    ]);
    const fields = recs[0]!.valueSchema!.fields![1]!.fields!;
    expect(fields[1]!.parameters).toEqual({ masked: 'true' });
    expect(fields[2]!.parameters).toEqual({ masked: 'true' });
  });

  it('hash: hex digest of the salt then the value - V1 of Java\'s serialized String, v2 of its UTF-8 bytes - cut to the column length', async () => {
    const src = await source();
    src.executeSync('demo', 'CREATE TABLE people (id INT PRIMARY KEY, code VARCHAR(10), email TEXT); INSERT INTO people VALUES (1, \'Ada\', \'Ada\')');
    const [r] = await drain(await task(src, { ...base, 'table.include.list': 'demo.people', 'column.mask.hash.SHA-256.with.salt.pepper': 'demo.people.code', 'column.mask.hash.v2.SHA-256.with.salt.pepper': 'demo.people.email' }));
    // ObjectOutputStream: AC ED 00 05, TC_STRING 74, length 00 03, then the modified UTF-8 bytes
    const v1 = await sha256(Buffer.from('pepper'), Buffer.from('aced0005740003', 'hex'), Buffer.from('Ada'));
    const v2 = await sha256(Buffer.from('pepper'), Buffer.from('Ada'));
    expect(env(r!).after).toEqual({ id: 1, code: v1.slice(0, 10), email: v2 });
  });

  it('a zero truncation length or an unknown algorithm fails the task at start, as Debezium does', async () => {
    const src = await source();
    await expect(task(src, { ...base, 'column.truncate.to.0.chars': 'demo.customers.name' })).rejects.toThrow('Maximum length must be positive');
    await expect(task(src, { ...base, 'column.mask.hash.NOPE-1.with.salt.x': 'demo.customers.name' })).rejects.toThrow('java.security.NoSuchAlgorithmException: NOPE-1 MessageDigest not available');
  });
});

describe('keys the embedded connector does not apply', () => {
  it('are named, each with what Debezium would do, so the task can say so when it starts', async () => {
    const { notAppliedKeys } = await import('./config.js');
    expect(notAppliedKeys({ ...base, 'column.propagate.source.type': '.*', 'signal.data.collection': 'demo.signals', 'snapshot.select.statement.overrides.demo.customers': 'SELECT 1', 'column.mask.with.3.chars': 'x' })).toEqual([
      { key: 'signal.data.collection', does: 'signals and incremental snapshots' },
      { key: 'snapshot.select.statement.overrides.demo.customers', does: 'custom snapshot queries' },
    ]);
  });
});
