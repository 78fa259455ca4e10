/**
 * The source task against a real embedded source, for tests: a source with the spec's two demo
 * rows, a started task with stored offsets of the test's choosing, and a drain of its polls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
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

export async function source(): Promise<EmbeddedSource> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-dbz-'));
  const src = await EmbeddedSource.open({ dir, now: () => Date.UTC(2026, 0, 1, 12, 0, 0, 123) });
  open.push({ src, dir });
  src.executeSync('demo', "DELETE FROM customers; INSERT INTO customers (created_at, id, name) VALUES ('2024-01-02 03:04:05', 1, 'Ada'), ('2024-01-02 03:04:06', 2, 'Grace')");
  return src;
}

export const base = { 'database.hostname': 'localhost', 'database.user': 'u', 'database.server.name': 'dbserver1', 'database.server.id': '184054', 'table.include.list': 'demo.customers' };

export async function task(src: EmbeddedSource, config: Record<string, string>, stored: Record<string, unknown> | null = null, now: () => number = () => 1767268800456): Promise<MySqlSourceTask> {
  const t = new MySqlSourceTask();
  await t.start(config, {
    connector: 'c',
    taskId: 0,
    offset: async () => stored,
    services: { log: silentLogger, dataDir: '/nonexistent', peers: {}, now, resource: <T,>(n: string) => (n === 'embeddedSource' ? (src as T) : undefined) },
  });
  return t;
}

/** Data change records (schema change events go to the topic named after the prefix). */
export async function drain(t: MySqlSourceTask, max = 10, withSchema = false): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for (let i = 0; i < max; i++) {
    const batch = await t.poll();
    if (!batch.length) break;
    out.push(...batch.filter((r) => withSchema || r.topic !== 'dbserver1'));
  }
  return out;
}
