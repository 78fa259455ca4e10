/**
 * ALTER TABLE end to end through the Debezium connector: where FIRST and AFTER put a column is
 * the order of the schema change's columns and of each later event's fields (Debezium's DDL
 * parser reorders its table the same way), a dropped primary key leaves the events keyless, and
 * an added one keys them by its columns. Table options and RENAME INDEX change no row.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Env = { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
type SchemaChange = { ddl: string; tableChanges: { type: string; table: { primaryKeyColumnNames: string[]; columns: { name: string; position: number }[] } }[] };
const isSchema = (r: SourceRecord) => r.topic === 'dbserver1';
const change = (r: SourceRecord) => r.value as SchemaChange;
const env = (r: SourceRecord) => r.value as Env;

async function streaming(setup: string) {
  const src = await source();
  src.executeSync('demo', setup);
  const t = await task(src, { ...base, 'table.include.list': 'demo\\..*', 'snapshot.mode': 'schema_only' });
  await drain(t, 20, true);
  return { src, poll: () => drain(t, 50, true) };
}

describe('ALTER TABLE through the connector', () => {
  it('FIRST and AFTER order the schema change’s columns and the fields of the next events', async () => {
    const { src, poll } = await streaming("CREATE TABLE o (id INT PRIMARY KEY, qty INT, note VARCHAR(10)); INSERT INTO o VALUES (1, 5, 'a')");
    src.executeSync('demo', "ALTER TABLE o ADD COLUMN status VARCHAR(8) DEFAULT 'new' AFTER id, ADD COLUMN seq INT FIRST, MODIFY note VARCHAR(20) AFTER seq");
    src.executeSync('demo', 'UPDATE o SET qty = 6 WHERE id = 1');
    const out = await poll();
    expect(out.map((r) => (isSchema(r) ? 'schema' : env(r).op))).toEqual(['schema', 'u']);
    const table = change(out[0]!).tableChanges[0]!.table;
    expect(table.columns.map((c) => [c.name, c.position])).toEqual([['seq', 1], ['note', 2], ['id', 3], ['status', 4], ['qty', 5]]);
    expect(change(out[0]!).ddl).toContain('AFTER id');
    const u = env(out[1]!);
    expect(Object.entries(u.after!)).toEqual([['seq', null], ['note', 'a'], ['id', 1], ['status', 'new'], ['qty', 6]]);
    expect(Object.keys(u.before!)).toEqual(['seq', 'note', 'id', 'status', 'qty']);
    const fields = (out[1]!.valueSchema!.fields!.find((f) => f.field === 'after')!.fields ?? []).map((f) => f.field);
    expect(fields).toEqual(['seq', 'note', 'id', 'status', 'qty']);
  });

  it('a dropped primary key leaves the events keyless; an added one keys them by its columns', async () => {
    const { src, poll } = await streaming("CREATE TABLE k (id INT PRIMARY KEY, code VARCHAR(5) NOT NULL); INSERT INTO k VALUES (1, 'x'), (2, 'y')");
    src.executeSync('demo', 'ALTER TABLE k DROP PRIMARY KEY');
    src.executeSync('demo', "UPDATE k SET code = 'z' WHERE id = 1");
    src.executeSync('demo', 'ALTER TABLE k ADD PRIMARY KEY (code)');
    src.executeSync('demo', "DELETE FROM k WHERE code = 'y'");
    const out = await poll();
    expect(out.map((r) => (isSchema(r) ? `schema ${change(r).tableChanges[0]!.table.primaryKeyColumnNames.join()}` : r.value === null ? 'tombstone' : env(r).op))).toEqual(['schema ', 'u', 'schema code', 'd', 'tombstone']);
    expect(out[1]!.key).toBeNull();
    expect(env(out[1]!).after).toEqual({ id: 1, code: 'z' });
    expect(out[3]!.key).toEqual({ code: 'y' });
    expect(env(out[3]!).before).toEqual({ id: 2, code: 'y' });
  });

  it('a table’s comment and character sets are in its schema change', async () => {
    const { src, poll } = await streaming('CREATE TABLE seed (id INT PRIMARY KEY)');
    src.executeSync('demo', "CREATE TABLE opt (id INT PRIMARY KEY, a VARCHAR(5)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='with options'");
    const out = await poll();
    const table = (change(out[0]!) as unknown as { tableChanges: { table: { comment: string | null; defaultCharsetName: string; columns: { name: string; charsetName: string | null }[] } }[] }).tableChanges[0]!.table;
    expect(table.comment).toBe('with options');
    expect(table.defaultCharsetName).toBe('utf8mb4');
    expect(table.columns.map((c) => [c.name, c.charsetName])).toEqual([['id', null], ['a', 'utf8mb4']]);
    expect(change(out[0]!).ddl).toContain("COLLATE=utf8mb4_bin COMMENT='with options'");
  });

  it('table options and RENAME INDEX are schema changes with no row events', async () => {
    const { src, poll } = await streaming('CREATE TABLE r (id INT PRIMARY KEY, a INT, KEY ka (a)); INSERT INTO r VALUES (1, 1)');
    src.executeSync('demo', "ALTER TABLE r RENAME INDEX ka TO kb, ENGINE=InnoDB, COMMENT='renamed', ALGORITHM=INPLACE, LOCK=NONE");
    const out = await poll();
    expect(out.map((r) => (isSchema(r) ? change(r).ddl : env(r).op))).toEqual(["ALTER TABLE r RENAME INDEX ka TO kb, ENGINE=InnoDB, COMMENT='renamed', ALGORITHM=INPLACE, LOCK=NONE"]);
    expect(src.executeSync('demo', 'SHOW INDEX FROM r')[0]!.rows.map((r) => r[2])).toEqual(['PRIMARY', 'kb']);
  });
});
