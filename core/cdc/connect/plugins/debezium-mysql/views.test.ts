/**
 * A view in the binlog as Debezium 1.9's MySQL connector takes it: its DDL parser skips views
 * (MySqlAntlrDdlParser is built with skipViews), so MySqlDatabaseSchema.parseStreamingDdl finds no
 * table changed and records the statement as a database-level schema change
 * (SchemaChangeEvent.ofDatabase: the statement, no tableChanges, no source table); the view is no
 * table, so no rows of it are captured, in the snapshot or after.
 */
import { expect, it } from 'vitest';
import { base, drain, source, task } from './task-harness.test-util.js';

it('CREATE VIEW reaches Debezium as a schema change with the statement and no table changes, and no view rows', async () => {
  const src = await source();
  src.executeSync('demo', 'CREATE VIEW early AS SELECT id FROM customers');
  const t = await task(src, { ...base, 'table.include.list': 'demo.*', 'snapshot.mode': 'initial' });
  const snap = await drain(t, 10, true);
  // the snapshot reads the table, never the view
  expect(snap.filter((r) => r.topic !== 'dbserver1').map((r) => r.topic)).toEqual(['dbserver1.demo.customers', 'dbserver1.demo.customers']);
  expect(snap.some((r) => JSON.stringify(r.value).includes('early'))).toBe(false);

  src.executeSync('demo', 'CREATE VIEW v AS SELECT id, name FROM customers');
  src.executeSync('demo', "INSERT INTO customers (id, name) VALUES (3, 'Edsger')");
  src.executeSync('demo', 'DROP VIEW v');
  const out = await drain(t, 10, true);
  const schema = out.filter((r) => r.topic === 'dbserver1').map((r) => r.value as { ddl: string; tableChanges: unknown[]; databaseName: string; source: { table: string | null } });
  expect(schema).toEqual([
    expect.objectContaining({ databaseName: 'demo', ddl: 'CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS SELECT id, name FROM customers', tableChanges: [], source: expect.objectContaining({ table: null }) }),
    expect.objectContaining({ databaseName: 'demo', ddl: 'DROP VIEW v', tableChanges: [], source: expect.objectContaining({ table: null }) }),
  ]);
  // the row inserted in between is the table's, and nothing is sent for the view
  expect(out.filter((r) => r.topic !== 'dbserver1').map((r) => r.topic)).toEqual(['dbserver1.demo.customers']);
});
