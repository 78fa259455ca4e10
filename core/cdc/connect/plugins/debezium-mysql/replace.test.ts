/**
 * The Debezium events of REPLACE, from the embedded source's change log. The op sequences follow
 * MariaDB 10.11's binary log for the same statements (binlog_format=ROW, decoded with
 * mariadb-binlog; source/replace-binlog-vs-mariadb.test.ts compares the change log with it): a
 * conflict on the table's last unique key is an Update_rows event, one on an earlier key a
 * Delete_rows event and then the Write_rows event.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../common/log.js';
import { EmbeddedSource } from '../../../source/embedded-source.js';
import type { SourceRecord } from '../../plugin.js';
import { MySqlSourceTask } from './task.js';

const open: { src: EmbeddedSource; dir: string }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.src.close();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

async function streamOf(src: EmbeddedSource, tables: string): Promise<() => Promise<SourceRecord[]>> {
  const t = new MySqlSourceTask();
  const config = { 'database.hostname': 'localhost', 'database.user': 'u', 'database.server.name': 'dbserver1', 'database.server.id': '184054', 'table.include.list': tables, 'snapshot.mode': 'schema_only', 'include.schema.changes': 'false' };
  await t.start(config, {
    connector: 'c',
    taskId: 0,
    offset: async () => null,
    services: { log: silentLogger, dataDir: '/nonexistent', peers: {}, now: () => 1767268800456, resource: <T,>(n: string) => (n === 'embeddedSource' ? (src as T) : undefined) },
  });
  return async () => {
    const out: SourceRecord[] = [];
    for (let i = 0; i < 10; i++) {
      const batch = await t.poll();
      if (!batch.length) break;
      out.push(...batch);
    }
    return out;
  };
}

describe('Debezium MySQL source task: REPLACE', () => {
  it('over the only unique key (the primary key) an update, op u; over the last unique key an update of the id, so a delete + tombstone and a create; over an earlier key a delete + tombstone, then a create', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-dbz-replace-'));
    const src = await EmbeddedSource.open({ dir });
    open.push({ src, dir });
    src.executeSync('demo', "DELETE FROM customers; INSERT INTO customers (created_at, id, name) VALUES ('2024-01-02 03:04:05', 1, 'Ada')");
    src.executeSync('demo', "CREATE TABLE people (id INT PRIMARY KEY, email VARCHAR(20) NOT NULL, UNIQUE KEY uq (email)); INSERT INTO people VALUES (1, 'a@x'), (2, 'b@x')");
    const drain = await streamOf(src, 'demo.customers,demo.people');
    expect(await drain()).toEqual([]);
    src.executeSync('demo', "REPLACE INTO customers (created_at, id, name) VALUES ('2024-01-02 03:04:05', 1, 'Ada R'); REPLACE INTO people VALUES (3, 'b@x'); REPLACE INTO people VALUES (1, 'c@x')");
    const recs = await drain();
    expect(recs.map((r) => [r.topic, r.key, r.value === null ? 'tombstone' : (r.value as { op: string }).op])).toEqual([
      ['dbserver1.demo.customers', { id: 1 }, 'u'],
      ['dbserver1.demo.people', { id: 2 }, 'd'],
      ['dbserver1.demo.people', { id: 2 }, 'tombstone'],
      ['dbserver1.demo.people', { id: 3 }, 'c'],
      ['dbserver1.demo.people', { id: 1 }, 'd'],
      ['dbserver1.demo.people', { id: 1 }, 'tombstone'],
      ['dbserver1.demo.people', { id: 1 }, 'c'],
    ]);
    expect(recs[0]!.value).toMatchObject({ before: { id: 1, name: 'Ada' }, after: { id: 1, name: 'Ada R' }, op: 'u' });
    // the update of the id names the old key, as an UPDATE of the id does; the delete and the
    // insert of the other REPLACE are two events of their own
    expect(recs[3]!.headers).toEqual([{ key: '__debezium.oldkey', value: '{"id":2}' }]);
    expect(recs[3]!.value).toMatchObject({ before: null, after: { id: 3, email: 'b@x' }, op: 'c' });
    expect(recs[4]!.headers ?? []).toEqual([]);
  });
});
