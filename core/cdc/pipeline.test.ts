/**
 * The whole variant-1 pipeline under a randomized SQL workload: the seed's source and sink
 * configs POSTed unchanged (but the sink's port), statements typed against the embedded source
 * (inserts, repeated updates of one id, deletes and re-inserts, primary key changes, REPLACE over
 * rows and unique keys, upserts, INSERT IGNORE, in autocommit and in transactions) with a restart
 * of the Connect service halfway, then the target's FINAL view and, after OPTIMIZE … FINAL
 * CLEANUP, the whole table equal the source, and the topic holds each change exactly once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CDC_ASSETS, targetIdNames, useClickHouseAndConnect } from './testing/clickhouse-fixture.test-util.js';

const fx = useClickHouseAndConnect('loupe-pipeline-');

async function post(url: string, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(res.status, await res.clone().text()).toBe(201);
}

/**
 * Deterministic statements over demo.customers (ids 1-3 to start with, and a unique key on
 * name, so that REPLACE can remove a row through it).
 */
function workload(seed: number, statements: number): string[] {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const live = new Map<number, string>([
    [1, 'Ada Lovelace'],
    [2, 'Grace Hopper'],
    [3, 'Edsger Dijkstra'],
  ]);
  const deleted: number[] = [];
  let nextId = 100;
  const out: string[] = [];
  const set = (id: number, name: string) => {
    // a name another row holds goes with that row (REPLACE) or is not written (the others use fresh names)
    for (const [other, n] of live) if (n === name && other !== id) live.delete(other);
    live.set(id, name);
  };
  const one = (i: number): string => {
    const ids = [...live.keys()];
    const r = rand();
    if (r < 0.3 || ids.length < 3) {
      const id = nextId++;
      set(id, `n${i}`);
      return `INSERT INTO customers (id, name) VALUES (${id}, 'n${i}')`;
    }
    if (r < 0.5) {
      const id = rand() < 0.4 ? ids[0]! : pick(ids);
      set(id, `u${i}`);
      return `UPDATE customers SET name = 'u${i}' WHERE id = ${id}`;
    }
    if (r < 0.6) {
      const id = pick(ids);
      live.delete(id);
      deleted.push(id);
      return `DELETE FROM customers WHERE id = ${id}`;
    }
    if (r < 0.67 && deleted.length) {
      const id = deleted.shift()!;
      set(id, `again${i}`);
      return `INSERT INTO customers (id, name) VALUES (${id}, 'again${i}')`;
    }
    if (r < 0.74) {
      // a primary key change, to an id never used
      const from = pick(ids);
      const to = nextId++;
      const name = live.get(from)!;
      live.delete(from);
      deleted.push(from);
      live.set(to, name);
      return `UPDATE customers SET id = ${to} WHERE id = ${from}`;
    }
    if (r < 0.8) {
      // over a row by its id
      const id = pick(ids);
      set(id, `r${i}`);
      return `REPLACE INTO customers (id, name) VALUES (${id}, 'r${i}')`;
    }
    if (r < 0.86) {
      // a new id with a name another row holds: that row goes
      const id = nextId++;
      const name = live.get(pick(ids))!;
      set(id, name);
      return `REPLACE INTO customers (id, name) VALUES (${id}, '${name}')`;
    }
    if (r < 0.94) {
      const id = rand() < 0.7 ? pick(ids) : nextId++;
      set(id, live.has(id) ? `x${i}` : `i${i}`);
      return `INSERT INTO customers (id, name) VALUES (${id}, 'i${i}') ON DUPLICATE KEY UPDATE name = 'x${i}'`;
    }
    return `INSERT IGNORE INTO customers (id, name) VALUES (${pick(ids)}, 'ignored${i}')`;
  };
  for (let i = 0; i < statements; ) {
    if (rand() < 0.2) {
      const n = 2 + Math.floor(rand() * 6);
      const body: string[] = [];
      for (let k = 0; k < n; k++) body.push(one(i++));
      out.push(['BEGIN', ...body, 'COMMIT'].join('; '));
    } else out.push(one(i++));
  }
  return out;
}

describe('the seed pipeline under a randomized SQL workload', () => {
  it('ends with FINAL, then the whole table after OPTIMIZE FINAL CLEANUP, equal to the source row for row', async () => {
    await fx.ch.api.query(readFileSync(path.join(CDC_ASSETS, 'target-table.sql'), 'utf8'));
    // the spec's table with a unique key on name
    fx.connect.api.source.executeSync(
      'demo',
      "DROP TABLE customers; CREATE TABLE customers (created_at DATETIME DEFAULT CURRENT_TIMESTAMP, id INT PRIMARY KEY, name VARCHAR(255), UNIQUE KEY uq_name (name)); INSERT INTO customers (id, name) VALUES (1, 'Ada Lovelace'), (2, 'Grace Hopper'), (3, 'Edsger Dijkstra')",
    );
    await post(`${fx.connect.url}/connectors`, readFileSync(path.join(CDC_ASSETS, 'source-variant1.json'), 'utf8'));
    await post(`${fx.connect.url}/connectors`, readFileSync(path.join(CDC_ASSETS, 'sink-variant1.json'), 'utf8').replace('"port": "8123"', `"port": "${new URL(fx.ch.url).port}"`));
    const from = fx.connect.api.source.position();
    const statements = workload(11, 600);
    for (const sql of statements.slice(0, 300)) fx.connect.api.source.executeSync('demo', sql);
    // a restart while both connectors are busy: they resume from what they stored
    await new Promise((r) => setTimeout(r, 20));
    await fx.restartConnect();
    for (const sql of statements.slice(300)) fx.connect.api.source.executeSync('demo', sql);

    const rows = fx.connect.api.source.executeSync('demo', 'SELECT id, name FROM customers ORDER BY id')[0]!.rows;
    const source = JSON.stringify(rows.map(([id, name]) => ({ id, name })));
    const target = (final: 'FINAL' | '') => targetIdNames(fx, final);
    const deadline = Date.now() + 60_000;
    while ((await target('FINAL')) !== source && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await target('FINAL')).toBe(source);
    expect(JSON.parse(await fx.ch.api.query('SELECT count() AS c FROM customers')).c).toBeGreaterThan(JSON.parse(source).length);
    await fx.ch.api.query('OPTIMIZE TABLE customers FINAL CLEANUP');
    expect(await target('')).toBe(source);

    // Each change reached the topic exactly once across the restart: the three snapshot rows, then
    // one message per change (a delete's tombstone dropped by unwrap), two for a primary key change.
    let expected = 3;
    for (const tx of fx.connect.api.source.readTransactions(from, 100_000)) {
      for (const ev of tx.events) expected += ev.op === 'u' && ev.before!.id !== ev.after!.id ? 2 : 1;
    }
    expect((await fx.connect.api.topicLog.offsets('customers', 0)).end).toBe(expected);
  }, 90_000);
});
