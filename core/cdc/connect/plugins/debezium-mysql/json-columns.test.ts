/**
 * A JSON column in Debezium's events: the snapshot reads it through JDBC as MySQL's text (a space
 * after colons and commas), a streamed change from the binlog's binary JSON as
 * mysql-binlog-connector's JsonStringFormatter writes it (no spaces, doubles as Java writes them),
 * both with MySQL's key order. The schema is io.debezium.data.Json.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';

type Env = { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
const env = (r: SourceRecord) => r.value as Env;

describe('JSON columns in the events', () => {
  it('the snapshot carries MySQL’s text, a streamed change the binlog’s', async () => {
    const src = await source();
    src.executeSync('demo', `CREATE TABLE docs (id INT PRIMARY KEY, doc JSON); INSERT INTO docs VALUES (1, '{"name": "a", "n": [1, 2.0], "id": 7}')`);
    const t = await task(src, { ...base, 'table.include.list': 'demo.docs', 'snapshot.mode': 'initial' });
    const snapshot = await drain(t, 20);
    const read = snapshot.find((r) => env(r).op === 'r')!;
    expect(env(read).after).toEqual({ id: 1, doc: '{"n": [1, 2.0], "id": 7, "name": "a"}' });
    const field = (read.valueSchema!.fields!.find((f) => f.field === 'after')!.fields ?? []).find((f) => f.field === 'doc');
    expect(field).toMatchObject({ type: 'string', name: 'io.debezium.data.Json' });
    src.executeSync('demo', `UPDATE docs SET doc = JSON_SET(doc, '$.id', 8, '$.t', 'x\\ty') WHERE id = 1`);
    const [u] = await drain(t, 20);
    expect(env(u!).op).toBe('u');
    expect(env(u!).before).toEqual({ id: 1, doc: '{"n":[1,2.0],"id":7,"name":"a"}' });
    expect(env(u!).after).toEqual({ id: 1, doc: '{"n":[1,2.0],"t":"x\\ty","id":8,"name":"a"}' });
  });
});
