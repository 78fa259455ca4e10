/**
 * The seed's pipeline from a real MariaDB (Debian's mariadbd with log-bin, binlog_format=ROW and a
 * server id, in a temporary directory on a free port; skipped without it, failing under CI=true)
 * into embedded ClickHouse: the seed's source config pointed at the server (host, port, user,
 * password), its sink config and target table unchanged but for the port. A snapshot of the rows
 * there, then inserts, updates, deletes, re-inserts, a primary key change, a schema change (a
 * column the target lacks, which the sink skips) and a restart of the Connect service mid-stream:
 * FINAL, and the whole table after OPTIMIZE … FINAL CLEANUP, equal the server's rows, and the topic
 * holds each change once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mariadbTests, startMariaDb, type MariaDbServer } from './source/testing/mariadb-server.js';
import { CDC_ASSETS, targetIdNames, useClickHouseAndConnect } from './testing/clickhouse-fixture.test-util.js';

const mariadb = mariadbTests();

async function post(url: string, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(res.status, await res.clone().text()).toBe(201);
}

/** Statements over demo.customers: each one change of one row (n of them), counted as the messages they make. */
function workload(): { sql: string; messages: number }[] {
  const out: { sql: string; messages: number }[] = [];
  for (let i = 0; i < 40; i++) {
    const id = 100 + i;
    out.push({ sql: `INSERT INTO customers (id, name) VALUES (${id}, 'n${i}')`, messages: 1 });
    if (i % 3 === 0) out.push({ sql: `UPDATE customers SET name = 'u${i}' WHERE id = ${id}`, messages: 1 });
    if (i % 4 === 1) out.push({ sql: `DELETE FROM customers WHERE id = ${id}`, messages: 1 });
    if (i % 8 === 1) out.push({ sql: `INSERT INTO customers (id, name) VALUES (${id}, 'again${i}')`, messages: 1 });
    if (i % 10 === 2) out.push({ sql: `UPDATE customers SET id = ${id + 1000} WHERE id = ${id}`, messages: 2 });
  }
  // a transaction of several changes
  out.push({ sql: "BEGIN; UPDATE customers SET name = 'Ada L.' WHERE id = 1; DELETE FROM customers WHERE id = 2; INSERT INTO customers (id, name) VALUES (2000, 'tx'); COMMIT", messages: 3 });
  return out;
}

describe.skipIf(mariadb.skip)(`the seed pipeline from a real MariaDB into embedded ClickHouse${mariadb.reason ? ` (${mariadb.reason})` : ''}`, () => {
  const fx = useClickHouseAndConnect('loupe-pipeline-mariadb-');
  let server: MariaDbServer;
  let db: mysql.Connection;
  beforeAll(async () => {
    server = await startMariaDb({ binlog: true });
    db = await mysql.createConnection({ host: server.host, port: server.port, user: server.user, password: server.password, database: 'mysql', multipleStatements: true });
    await db.query(
      "CREATE DATABASE demo; USE demo; CREATE TABLE customers (created_at DATETIME DEFAULT CURRENT_TIMESTAMP, id INT NOT NULL PRIMARY KEY, name VARCHAR(255)); INSERT INTO customers (id, name) VALUES (1, 'Ada Lovelace'), (2, 'Grace Hopper'), (3, 'Edsger Dijkstra')",
    );
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  it('snapshot, changes, a schema change and a restart: FINAL and CLEANUP equal the server’s rows', async () => {
    await fx.ch.api.query(readFileSync(path.join(CDC_ASSETS, 'target-table.sql'), 'utf8'));
    const source = JSON.parse(readFileSync(path.join(CDC_ASSETS, 'source-variant1.json'), 'utf8')) as { name: string; config: Record<string, string> };
    Object.assign(source.config, { 'database.hostname': server.host, 'database.port': String(server.port), 'database.user': server.user, 'database.password': server.password });
    await post(`${fx.connect.url}/connectors`, JSON.stringify(source));
    await post(`${fx.connect.url}/connectors`, readFileSync(path.join(CDC_ASSETS, 'sink-variant1.json'), 'utf8').replace('"port": "8123"', `"port": "${new URL(fx.ch.url).port}"`));

    // the snapshot first (its three rows on the topic), so that every later statement is streamed
    const snapshotDeadline = Date.now() + 30_000;
    while (((await fx.connect.api.topicLog.describeTopic('customers'))?.partitions[0]?.endOffset ?? 0) < 3 && Date.now() < snapshotDeadline) await new Promise((r) => setTimeout(r, 100));
    const steps = workload();
    const half = Math.floor(steps.length / 2);
    for (const s of steps.slice(0, half)) await db.query(s.sql);
    // a schema change mid-stream: a column the target lacks (the sink skips unknown fields)
    await db.query('ALTER TABLE customers ADD COLUMN email VARCHAR(100)');
    await db.query("INSERT INTO customers (id, name, email) VALUES (3000, 'with email', 'x@example.org')");
    // a restart while the connectors are busy with the first half: they resume from the offsets they stored
    await fx.restartConnect();
    for (const s of steps.slice(half, half + 10)) await db.query(s.sql);
    // and another, right after more changes
    await fx.restartConnect();
    for (const s of steps.slice(half + 10)) await db.query(s.sql);

    const [rows] = (await db.query('SELECT id, name FROM customers ORDER BY id')) as unknown as [{ id: number; name: string }[]];
    const expected = JSON.stringify(rows.map((r) => ({ id: r.id, name: r.name })));
    const target = (final: 'FINAL' | '') => targetIdNames(fx, final);
    const deadline = Date.now() + 60_000;
    while ((await target('FINAL')) !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await target('FINAL')).toBe(expected);
    expect(JSON.parse(await fx.ch.api.query('SELECT count() AS c FROM customers')).c).toBeGreaterThan(rows.length);
    await fx.ch.api.query('OPTIMIZE TABLE customers FINAL CLEANUP');
    expect(await target('')).toBe(expected);

    // every change reached the topic once across the restart: the 3 snapshot rows, one message a
    // change (unwrap drops the tombstones), two for a primary key change, and the row with an email
    const messages = 3 + steps.reduce((n, s) => n + s.messages, 0) + 1;
    expect((await fx.connect.api.topicLog.offsets('customers', 0)).end).toBe(messages);
  }, 120_000);
});
