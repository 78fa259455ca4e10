/**
 * What the source task makes of changes it reads late: a snapshot taken while rows change reads
 * the tables as they were at its position (MySQL's consistent snapshot), and a backlog read after
 * schema changes is shaped by each table as it was when the row was written (Debezium's schema
 * history), not by the table as it is now.
 */
import { describe, expect, it } from 'vitest';
import type { Schema, SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

interface Env {
  op: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  source: { snapshot: string };
}
const env = (r: SourceRecord) => r.value as Env;
const afterFields = (r: SourceRecord) => (r.valueSchema as Schema).fields!.find((f) => f.field === 'after')!.fields!.map((f) => f.field);
const changes = (recs: SourceRecord[]) => recs.filter((r) => r.value !== null).map((r) => [env(r).op, (env(r).after ?? env(r).before)!.id, (env(r).after ?? env(r).before)!.name]);

describe('a snapshot taken while the table changes', () => {
  it('reads every row as it was at the snapshot position; what was committed during the snapshot follows once, as c, u and d', async () => {
    const src = await source();
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'Edsger'), (4, 'Barbara'), (5, 'Frances')");
    const t = await task(src, { ...base, 'max.batch.size': '1', 'include.schema.changes': 'false' });
    const recs: SourceRecord[] = [];
    recs.push(...(await t.poll()));
    // the snapshot has handed out row 1; rows 2-5 are still to be read
    src.executeSync('demo', "UPDATE customers SET name = 'Grace H.' WHERE id = 2; DELETE FROM customers WHERE id = 4; INSERT INTO customers (id, name) VALUES (6, 'Hedy'); UPDATE customers SET name = 'Ada L.' WHERE id = 1");
    recs.push(...(await drain(t, 30)));
    expect(changes(recs)).toEqual([
      ['r', 1, 'Ada'],
      ['r', 2, 'Grace'],
      ['r', 3, 'Edsger'],
      ['r', 4, 'Barbara'],
      ['r', 5, 'Frances'],
      ['u', 2, 'Grace H.'],
      ['d', 4, 'Barbara'],
      ['c', 6, 'Hedy'],
      ['u', 1, 'Ada L.'],
    ]);
    expect(recs.filter((r) => r.value && env(r).op === 'r').map((r) => env(r).source.snapshot)).toEqual(['true', 'true', 'true', 'true', 'last']);
  });
});

describe('a backlog read after schema changes', () => {
  it('shapes each change by the table as it was when the change was written: before an ADD COLUMN without it, before a DROP COLUMN with it', async () => {
    const src = await source();
    const streaming = (await drain(await task(src, { ...base, 'include.schema.changes': 'false' }))).at(-1)!.sourceOffset;
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'Edsger')");
    src.executeSync('demo', 'ALTER TABLE customers ADD COLUMN email varchar(50)');
    src.executeSync('demo', "INSERT INTO customers (id, name, email) VALUES (4, 'Barbara', 'bl@mit.edu')");
    src.executeSync('demo', 'ALTER TABLE customers DROP COLUMN name');
    src.executeSync('demo', "INSERT INTO customers (id, email) VALUES (5, 'fa@ibm.com')");
    const recs = await drain(await task(src, { ...base, 'include.schema.changes': 'false' }, streaming));
    expect(recs.map(afterFields)).toEqual([
      ['created_at', 'id', 'name'],
      ['created_at', 'id', 'name', 'email'],
      ['created_at', 'id', 'email'],
    ]);
    expect(recs.map((r) => env(r).after)).toMatchObject([{ id: 3, name: 'Edsger' }, { id: 4, name: 'Barbara', email: 'bl@mit.edu' }, { id: 5, email: 'fa@ibm.com' }]);
    expect(env(recs[0]!).after).not.toHaveProperty('email');
    expect(env(recs[2]!).after).not.toHaveProperty('name');
  });

  it('still sends the changes of a table renamed or dropped since, under the name the table had', async () => {
    const src = await source();
    const config = { ...base, 'table.include.list': 'demo\\..*', 'include.schema.changes': 'false' };
    const streaming = (await drain(await task(src, config))).at(-1)!.sourceOffset;
    src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'Edsger'); RENAME TABLE customers TO clients; INSERT INTO clients (id, name) VALUES (4, 'Barbara')");
    src.executeSync('demo', "CREATE TABLE scratch (id int primary key); INSERT INTO scratch VALUES (7); DROP TABLE scratch");
    const recs = (await drain(await task(src, config, streaming))).filter((r) => r.value !== null);
    expect(recs.map((r) => [r.topic, env(r).op, env(r).after!.id])).toEqual([
      ['dbserver1.demo.customers', 'c', 3],
      ['dbserver1.demo.clients', 'c', 4],
      ['dbserver1.demo.scratch', 'c', 7],
    ]);
  });

  it('a connector started with snapshot.mode=never reads the whole log with the tables as they were then', async () => {
    const src = await source();
    src.executeSync('demo', 'ALTER TABLE customers ADD COLUMN email varchar(50)');
    const recs = (await drain(await task(src, { ...base, 'snapshot.mode': 'never', 'include.schema.changes': 'false' }), 20)).filter((r) => r.value !== null);
    // the seed's rows, their deletion and the harness's two rows: all written before the ALTER
    expect(recs.length).toBeGreaterThan(0);
    for (const r of recs) expect(afterFields(r)).toEqual(['created_at', 'id', 'name']);
  });
});
