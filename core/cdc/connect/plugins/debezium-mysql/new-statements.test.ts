/**
 * The statements the embedded source learned lately, end to end through the Debezium connector:
 * CREATE TABLE … SELECT (a schema change with the generated CREATE TABLE, then one `c` per copied
 * row), writes through a view (the base table's events), CHECK constraints (the DDL in the schema
 * history, refused rows sending nothing), SET columns read as numbers, charset introducers in rows
 * and DEFAULTs, exact aggregates written by INSERT … SELECT, and invalid dates refused.
 *
 * Where the MySQL binlog decides the events: a view is no table in it (the rows are logged under
 * the base table), a statement that fails writes nothing to it, and a DDL statement is logged as
 * MySQL writes it (SHOW CREATE TABLE's text for the table a CREATE TABLE … SELECT made).
 */
import { describe, expect, it } from 'vitest';
import type { Schema, SourceRecord } from '../../plugin.js';
import { base, drain, source, task } from './task-harness.test-util.js';
import type { EmbeddedSource } from '../../../source/embedded-source.js';

type Env = { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null; source: Record<string, unknown> };
type SchemaChange = { ddl: string; databaseName: string; tableChanges: { type: string; id: string; table: { primaryKeyColumnNames: string[]; columns: { name: string; typeName: string; optional: boolean }[] } }[]; source: { table: string | null } };
const env = (r: SourceRecord) => r.value as Env;
const change = (r: SourceRecord) => r.value as SchemaChange;
const isSchema = (r: SourceRecord) => r.topic === 'dbserver1';
/** Each record as [topic or 'schema', op or the DDL's first line, key]. */
const summary = (rs: SourceRecord[]) => rs.map((r) => (isSchema(r) ? ['schema', change(r).ddl.split('\n')[0]] : [r.topic, r.value === null ? 'tombstone' : env(r).op, r.key]));
const fields = (r: SourceRecord): Record<string, Schema> => Object.fromEntries(((r.valueSchema!.fields!.find((f) => f.field === 'after') as Schema).fields ?? []).map((f) => [f.field, f]));

/** A source past its demo rows, and a task streaming every table of `demo` from now. */
async function streaming(setup?: string, extra: Record<string, string> = {}): Promise<{ src: EmbeddedSource; poll: () => Promise<SourceRecord[]>; t: Awaited<ReturnType<typeof task>> }> {
  const src = await source();
  if (setup) src.executeSync('demo', setup);
  const t = await task(src, { ...base, 'table.include.list': 'demo\\..*', 'snapshot.mode': 'schema_only', ...extra });
  await drain(t, 20, true);
  return { src, t, poll: () => drain(t, 50, true) };
}

/** Runs a statement the source must refuse with MySQL's error `errno` (and `message`, when given). */
function refused(src: EmbeddedSource, sql: string, errno: number, message?: string): void {
  let error: unknown;
  try {
    src.executeSync('demo', sql);
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ errno, ...(message ? { message } : {}) });
}

/** The snapshot's CREATE TABLE event of `table`. */
const createOf = (rs: SourceRecord[], table: string) => rs.find((r) => isSchema(r) && change(r).ddl.startsWith(`CREATE TABLE \`${table}\``))!;

describe('CREATE TABLE … SELECT', () => {
  it('is the generated CREATE TABLE as a schema change (CREATE, the SELECT’s columns), then one c per copied row, keyless without a key', async () => {
    const { src, poll } = await streaming("CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(5) NOT NULL DEFAULT 'z', e ENUM('a','b') DEFAULT 'b'); INSERT INTO src VALUES (1, 'a', 'a'), (2, 'b', 'b'), (3, 'c', 'a')");
    src.executeSync('demo', 'CREATE TABLE cp AS SELECT id, v, e FROM src WHERE id < 3');
    const out = await poll();
    expect(summary(out)).toEqual([
      ['schema', 'CREATE TABLE `cp` ('],
      ['dbserver1.demo.cp', 'c', null],
      ['dbserver1.demo.cp', 'c', null],
    ]);
    const ddl = change(out[0]!);
    // MySQL logs the table a CREATE TABLE … SELECT made as SHOW CREATE TABLE prints it: the
    // columns keep their types, NULL-ness and DEFAULTs, the key is not copied
    expect(ddl.ddl).toBe("CREATE TABLE `cp` (\n  `id` int NOT NULL,\n  `v` varchar(5) NOT NULL DEFAULT 'z',\n  `e` enum('a','b') DEFAULT 'b'\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci");
    expect(ddl.tableChanges).toEqual([expect.objectContaining({ type: 'CREATE', id: '"demo"."cp"', table: expect.objectContaining({ primaryKeyColumnNames: [], columns: [expect.objectContaining({ name: 'id', typeName: 'INT', optional: false }), expect.objectContaining({ name: 'v', typeName: 'VARCHAR', optional: false }), expect.objectContaining({ name: 'e', typeName: 'ENUM', optional: true })] }) })]);
    expect(ddl.source.table).toBe('cp');
    expect(out.slice(1).map((r) => [env(r).before, env(r).after])).toEqual([
      [null, { id: 1, v: 'a', e: 'a' }],
      [null, { id: 2, v: 'b', e: 'b' }],
    ]);
    expect(out[1]!.keySchema).toBeNull();
    expect(fields(out[1]!)).toMatchObject({ v: { type: 'string', optional: false, default: 'z' }, e: { name: 'io.debezium.data.Enum', parameters: { allowed: 'a,b' }, default: 'b' } });
  });

  it('with its own column and key definitions: those columns first, the key in the events, the CHECK clause in the DDL', async () => {
    const { src, poll } = await streaming("CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(5)); INSERT INTO src VALUES (1, 'a'), (2, 'b')");
    src.executeSync('demo', 'CREATE TABLE cp (x INT DEFAULT 3, PRIMARY KEY (id), CHECK (x < 100)) SELECT id, v FROM src');
    const out = await poll();
    expect(summary(out)).toEqual([
      ['schema', 'CREATE TABLE `cp` ('],
      ['dbserver1.demo.cp', 'c', { id: 1 }],
      ['dbserver1.demo.cp', 'c', { id: 2 }],
    ]);
    expect(change(out[0]!).ddl).toContain('CONSTRAINT `cp_chk_1` CHECK ((`x` < 100))');
    expect(change(out[0]!).tableChanges[0]!.table.primaryKeyColumnNames).toEqual(['id']);
    expect(env(out[1]!).after).toEqual({ x: 3, id: 1, v: 'a' });
  });

  it('the copied rows of a table the include list leaves out send nothing; its DDL is still in the schema history', async () => {
    const { src, poll } = await streaming("CREATE TABLE src (id INT PRIMARY KEY); INSERT INTO src VALUES (1)", { 'table.include.list': 'demo\\.src' });
    src.executeSync('demo', 'CREATE TABLE cp SELECT id FROM src');
    expect(summary(await poll())).toEqual([['schema', 'CREATE TABLE `cp` (']]);
  });

  it('one the source refuses (1235 for a UNION, 1050 for an existing table) sends nothing', async () => {
    const { src, poll } = await streaming('CREATE TABLE src (id INT PRIMARY KEY); INSERT INTO src VALUES (1)');
    refused(src, 'CREATE TABLE cp SELECT id FROM src UNION ALL SELECT id FROM src', 1235);
    refused(src, 'CREATE TABLE src SELECT 1 AS id', 1050);
    expect(await poll()).toEqual([]);
  });

  it('a restart from the schema change’s stored offset sends every copied row, shaped by the new table', async () => {
    const { src, poll } = await streaming("CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(5)); INSERT INTO src VALUES (1, 'a'), (2, 'b')");
    src.executeSync('demo', 'CREATE TABLE cp SELECT * FROM src');
    const first = await poll();
    const schemaChange = first.find(isSchema)!;
    const again = await drain(await task(src, { ...base, 'table.include.list': 'demo\\..*' }, schemaChange.sourceOffset), 20, true);
    expect(summary(again)).toEqual([
      ['dbserver1.demo.cp', 'c', null],
      ['dbserver1.demo.cp', 'c', null],
    ]);
    expect(again.map((r) => env(r).after)).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
  });

  it('a restart from an ALTER TABLE’s stored offset shapes the next rows by the altered table', async () => {
    const { src, poll } = await streaming('CREATE TABLE src (id INT PRIMARY KEY)');
    src.executeSync('demo', 'ALTER TABLE src ADD COLUMN w INT DEFAULT 7');
    src.executeSync('demo', 'INSERT INTO src (id) VALUES (1)');
    const alter = (await poll()).find(isSchema)!;
    const again = await drain(await task(src, { ...base, 'table.include.list': 'demo\\..*' }, alter.sourceOffset), 20, true);
    expect(again.map((r) => env(r).after)).toEqual([{ id: 1, w: 7 }]);
  });

  it('in the snapshot, a table made by CREATE TABLE … SELECT is read like any other', async () => {
    const src = await source();
    src.executeSync('demo', "CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(5)); INSERT INTO src VALUES (1, 'a'); CREATE TABLE cp SELECT * FROM src");
    const out = await drain(await task(src, { ...base, 'table.include.list': 'demo\\.cp' }), 20, true);
    expect(change(createOf(out, 'cp')).ddl).toBe('CREATE TABLE `cp` (\n  `id` int NOT NULL,\n  `v` varchar(5) DEFAULT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci');
    expect(out.filter((r) => !isSchema(r)).map((r) => [env(r).op, env(r).after, env(r).source.snapshot])).toEqual([['r', { id: 1, v: 'a' }, 'last']]);
  });
});

describe('writes through a view', () => {
  const SETUP = "CREATE TABLE items (id INT PRIMARY KEY, n INT, note VARCHAR(10) DEFAULT 'new'); INSERT INTO items VALUES (1, 5, 'one'); CREATE VIEW pos AS SELECT id, n FROM items WHERE n > 0 WITH CHECK OPTION";

  it('INSERT, UPDATE, DELETE and REPLACE through a view are the base table’s events, on its topic, with its whole rows', async () => {
    const { src, poll } = await streaming(SETUP);
    src.executeSync('demo', 'INSERT INTO pos VALUES (2, 7)');
    src.executeSync('demo', 'UPDATE pos SET n = 8 WHERE id = 2');
    src.executeSync('demo', 'REPLACE INTO pos VALUES (1, 9)');
    src.executeSync('demo', 'DELETE FROM pos WHERE id = 2');
    const out = await poll();
    expect(summary(out)).toEqual([
      ['dbserver1.demo.items', 'c', { id: 2 }],
      ['dbserver1.demo.items', 'u', { id: 2 }],
      ['dbserver1.demo.items', 'u', { id: 1 }],
      ['dbserver1.demo.items', 'd', { id: 2 }],
      ['dbserver1.demo.items', 'tombstone', { id: 2 }],
    ]);
    expect(out.map((r) => (r.value === null ? null : [env(r).before, env(r).after, env(r).source.table]))).toEqual([
      [null, { id: 2, n: 7, note: 'new' }, 'items'],
      [{ id: 2, n: 7, note: 'new' }, { id: 2, n: 8, note: 'new' }, 'items'],
      // REPLACE over the only unique key is an update; the row it writes is a new one, so the column the view hides takes its default
      [{ id: 1, n: 5, note: 'one' }, { id: 1, n: 9, note: 'new' }, 'items'],
      [{ id: 2, n: 8, note: 'new' }, null, 'items'],
      null,
    ]);
  });

  it('a write the view’s CHECK OPTION refuses (1369) sends nothing, and a view alone in the include list captures nothing', async () => {
    const { src, poll } = await streaming(SETUP);
    refused(src, 'INSERT INTO pos VALUES (3, -1)', 1369, "CHECK OPTION failed 'demo.pos'");
    refused(src, 'UPDATE pos SET n = 0 WHERE id = 1', 1369);
    expect(await poll()).toEqual([]);

    const viewOnly = await task(src, { ...base, 'table.include.list': 'demo\\.pos', 'snapshot.mode': 'initial' });
    expect((await drain(viewOnly)).length).toBe(0);
    src.executeSync('demo', 'INSERT INTO pos VALUES (4, 4)');
    expect(await drain(viewOnly)).toEqual([]);
  });
});

describe('CHECK constraints', () => {
  const TABLE = "CREATE TABLE ck (id INT PRIMARY KEY, n INT CHECK (n > 0), s VARCHAR(10) DEFAULT _utf8mb4'x', CONSTRAINT no_no CHECK (s <> 'no') NOT ENFORCED)";

  it('the snapshot’s DDL is SHOW CREATE TABLE with the constraints by name, NOT ENFORCED in its version comment; the columns are unaffected', async () => {
    const src = await source();
    src.executeSync('demo', `${TABLE}; INSERT INTO ck (id, n) VALUES (1, 5)`);
    const out = await drain(await task(src, { ...base, 'table.include.list': 'demo\\.ck' }), 20, true);
    const create = createOf(out, 'ck');
    expect(change(create).ddl).toBe(
      "CREATE TABLE `ck` (\n  `id` int NOT NULL,\n  `n` int DEFAULT NULL,\n  `s` varchar(10) DEFAULT 'x',\n  PRIMARY KEY (`id`),\n  CONSTRAINT `ck_chk_1` CHECK ((`n` > 0)),\n  CONSTRAINT `no_no` CHECK ((`s` <> _utf8mb4'no')) /*!80016 NOT ENFORCED */\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci",
    );
    expect(change(create).tableChanges[0]!.table.columns.map((c) => `${c.name} ${c.typeName}`)).toEqual(['id INT', 'n INT', 's VARCHAR']);
    const row = out.find((r) => !isSchema(r))!;
    expect(env(row)).toMatchObject({ op: 'r', after: { id: 1, n: 5, s: 'x' } });
    expect(fields(row).s).toMatchObject({ type: 'string', default: 'x' });
  });

  it('streamed: the CREATE TABLE as written; rows a constraint refuses send nothing, under IGNORE only the rows kept', async () => {
    const { src, poll } = await streaming();
    src.executeSync('demo', TABLE);
    src.executeSync('demo', 'INSERT INTO ck (id, n) VALUES (1, 5)');
    refused(src, 'INSERT INTO ck (id, n) VALUES (2, -1)', 3819, "Check constraint 'ck_chk_1' is violated.");
    refused(src, 'UPDATE ck SET n = 0 WHERE id = 1', 3819);
    refused(src, 'REPLACE INTO ck (id, n) VALUES (1, -5)', 3819);
    src.executeSync('demo', 'INSERT IGNORE INTO ck (id, n) VALUES (3, -1), (4, 4)');
    src.executeSync('demo', 'UPDATE IGNORE ck SET n = n - 5');
    // NOT ENFORCED is not checked
    src.executeSync('demo', "INSERT INTO ck (id, n, s) VALUES (5, 1, 'no')");
    const out = await poll();
    expect(summary(out)).toEqual([
      ['schema', TABLE],
      ['dbserver1.demo.ck', 'c', { id: 1 }],
      ['dbserver1.demo.ck', 'c', { id: 4 }],
      ['dbserver1.demo.ck', 'c', { id: 5 }],
    ]);
    expect(change(out[0]!).tableChanges).toEqual([expect.objectContaining({ type: 'CREATE', id: '"demo"."ck"' })]);
    expect(env(out[1]!).after).toEqual({ id: 1, n: 5, s: 'x' });
    expect(fields(out[1]!).s).toMatchObject({ default: 'x' });
  });

  it('ALTER TABLE ADD / DROP CHECK and ALTER CHECK … ENFORCED are ALTER schema changes with the columns as they were; then the constraint refuses rows', async () => {
    const { src, poll } = await streaming(`${TABLE}; INSERT INTO ck (id, n) VALUES (1, 5)`);
    src.executeSync('demo', 'ALTER TABLE ck ADD CONSTRAINT small CHECK (id < 1000)');
    src.executeSync('demo', 'ALTER TABLE ck ALTER CHECK no_no ENFORCED');
    src.executeSync('demo', 'ALTER TABLE ck DROP CHECK small');
    refused(src, "INSERT INTO ck (id, n, s) VALUES (2, 1, 'no')", 3819, "Check constraint 'no_no' is violated.");
    refused(src, 'ALTER TABLE ck ADD CONSTRAINT big CHECK (n > 10)', 3819);
    src.executeSync('demo', 'INSERT INTO ck (id, n) VALUES (2000, 1)');
    const out = await poll();
    expect(summary(out)).toEqual([
      ['schema', 'ALTER TABLE ck ADD CONSTRAINT small CHECK (id < 1000)'],
      ['schema', 'ALTER TABLE ck ALTER CHECK no_no ENFORCED'],
      ['schema', 'ALTER TABLE ck DROP CHECK small'],
      ['dbserver1.demo.ck', 'c', { id: 2000 }],
    ]);
    for (const r of out.filter(isSchema)) {
      expect(change(r).tableChanges.map((c) => [c.type, c.id, c.table.columns.map((col) => col.name)])).toEqual([['ALTER', '"demo"."ck"', ['id', 'n', 's']]]);
    }
    expect(env(out[3]!).after).toEqual({ id: 2000, n: 1, s: 'x' });
  });

  it('a dump’s CREATE TABLE, with SHOW CREATE TABLE’s CHECK text and /*!80016 NOT ENFORCED */, streams as written; the row it does not check is sent', async () => {
    const DDL = "CREATE TABLE `dump` (\n  `id` int NOT NULL,\n  `s` varchar(5) DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  CONSTRAINT `c1` CHECK ((`s` <> _utf8mb4'no')) /*!80016 NOT ENFORCED */\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci";
    const { src, poll } = await streaming();
    src.executeSync('demo', DDL);
    src.executeSync('demo', "INSERT INTO `dump` VALUES (1, 'no')");
    const out = await poll();
    // (MySQL's binlog keeps the statement's text, the version comment too; the source's change log
    // has it opened, `  NOT ENFORCED  `, so only the constraint is compared here)
    expect(out.map((r) => (isSchema(r) ? change(r).ddl.replace(/ *(\/\*!80016)? *NOT ENFORCED *(\*\/)?/, ' NOT ENFORCED') : [env(r).op, env(r).after]))).toEqual([DDL.replace(' /*!80016 NOT ENFORCED */', ' NOT ENFORCED'), ['c', { id: 1, s: 'no' }]]);
    expect(change(out[0]!).tableChanges[0]!.table.columns.map((c) => c.name)).toEqual(['id', 's']);
  });
});

describe('SET columns read as numbers', () => {
  it('UPDATE and DELETE whose WHERE and ORDER BY read a SET as its number send the rows they change, the SET as its members', async () => {
    const { src, poll } = await streaming("CREATE TABLE tags (id INT PRIMARY KEY, s SET('x','y','z') DEFAULT 'x,z', n INT); INSERT INTO tags (id, s, n) VALUES (1, 'y', 0), (2, 'z,x', 0), (3, '', 0)");
    src.executeSync('demo', 'UPDATE tags SET n = 1 WHERE s = 5');
    src.executeSync('demo', 'UPDATE tags SET n = 2 WHERE s > 0 ORDER BY s DESC LIMIT 1');
    src.executeSync('demo', 'DELETE FROM tags WHERE s BETWEEN 1 AND 3 ORDER BY s LIMIT 1');
    src.executeSync('demo', 'INSERT INTO tags (id) VALUES (4)');
    const out = await poll();
    expect(out.map((r) => (r.value === null ? 'tombstone' : [env(r).op, env(r).before, env(r).after]))).toEqual([
      ['u', { id: 2, s: 'x,z', n: 0 }, { id: 2, s: 'x,z', n: 1 }],
      ['u', { id: 2, s: 'x,z', n: 1 }, { id: 2, s: 'x,z', n: 2 }],
      ['d', { id: 1, s: 'y', n: 0 }, null],
      'tombstone',
      ['c', null, { id: 4, s: 'x,z', n: null }],
    ]);
    expect(fields(out[0]!).s).toMatchObject({ type: 'string', name: 'io.debezium.data.EnumSet', parameters: { allowed: 'x,y,z' }, default: 'x,z' });
  });
});

describe('charset introducers', () => {
  it('introduced literals in rows are the values they denote, text or bytes', async () => {
    const { src, poll } = await streaming('CREATE TABLE lit (id INT PRIMARY KEY, s VARCHAR(10), b VARBINARY(4), e ENUM(\'a\',\'é\'))');
    src.executeSync('demo', "INSERT INTO lit VALUES (1, _utf8mb4'ü', _binary'ab', _utf8mb4'é'), (2, N'n', X'00FF', 'a'), (3, _latin1 X'E9', _binary X'4142', N'a')");
    src.executeSync('demo', "UPDATE lit SET s = _utf8mb4'v' WHERE b = _binary'ab'");
    const out = await poll();
    expect(out.map((r) => [env(r).op, env(r).after])).toEqual([
      ['c', { id: 1, s: 'ü', b: Buffer.from('ab').toString('base64'), e: 'é' }],
      ['c', { id: 2, s: 'n', b: Buffer.from([0, 255]).toString('base64'), e: 'a' }],
      ['c', { id: 3, s: 'é', b: Buffer.from('AB').toString('base64'), e: 'a' }],
      ['u', { id: 1, s: 'v', b: Buffer.from('ab').toString('base64'), e: 'é' }],
    ]);
    expect(fields(out[0]!).e).toMatchObject({ parameters: { allowed: 'a,é' } });
  });

  it('DEFAULTs with introducers: the string’s value; a binary column’s string default is its bytes; a hexadecimal default is none, as Debezium’s DDL parser has no branch for it', async () => {
    const DDL = "CREATE TABLE d (id INT PRIMARY KEY, a VARCHAR(5) DEFAULT _utf8mb4'x', c CHAR(3) DEFAULT N'nn', e VARCHAR(3) DEFAULT _latin1 X'E9', f BINARY(2) DEFAULT _binary'ab', g ENUM('p','q') DEFAULT _utf8mb4'q', h SET('a','b') DEFAULT 'b,a', b VARBINARY(4) DEFAULT X'4142')";
    const { src, poll } = await streaming();
    src.executeSync('demo', DDL);
    src.executeSync('demo', 'INSERT INTO d (id) VALUES (1)');
    const out = await poll();
    expect(summary(out)).toEqual([
      ['schema', DDL],
      ['dbserver1.demo.d', 'c', { id: 1 }],
    ]);
    const f = fields(out[1]!);
    expect(Object.fromEntries(Object.entries(f).map(([k, s]) => [k, s.default]))).toEqual({ id: undefined, a: 'x', c: 'nn', e: 'é', f: Buffer.from('ab').toString('base64'), g: 'q', h: 'b,a', b: undefined });
    expect(f.g).toMatchObject({ name: 'io.debezium.data.Enum', parameters: { allowed: 'p,q' } });
    expect(f.h).toMatchObject({ name: 'io.debezium.data.EnumSet', parameters: { allowed: 'a,b' } });
    // the row has the defaults' values
    expect(env(out[1]!).after).toEqual({ id: 1, a: 'x', c: 'nn', e: 'é', f: Buffer.from('ab').toString('base64'), g: 'q', h: 'a,b', b: Buffer.from('AB').toString('base64') });
  });

  it('a binary column’s string default follows binary.handling.mode, in the snapshot too', async () => {
    const src = await source();
    src.executeSync('demo', "CREATE TABLE d (id INT PRIMARY KEY, f BINARY(2) DEFAULT _binary'ab', g VARBINARY(3) DEFAULT 'cd'); INSERT INTO d (id) VALUES (1)");
    for (const [mode, ab, cd] of [
      ['bytes', 'YWI=', 'Y2Q='],
      ['base64', 'YWI=', 'Y2Q='],
      ['hex', '6162', '6364'],
    ]) {
      const out = await drain(await task(src, { ...base, 'table.include.list': 'demo\\.d', 'binary.handling.mode': mode!, 'include.schema.changes': 'false' }));
      // (the row's values are left out: the source's snapshot scan returns a binary column's
      // value written from a string as its text, 'ab', where the change log has its bytes' hex)
      expect([fields(out[0]!).f!.default, fields(out[0]!).g!.default]).toEqual([ab, cd]);
    }
  });
});

describe('exact aggregates and invalid dates', () => {
  it('INSERT … SELECT SUM / AVG of DECIMALs writes the exact sums; a date not on the calendar is refused and sends nothing', async () => {
    const { src, poll } = await streaming('CREATE TABLE m (id INT PRIMARY KEY, v DECIMAL(10,2), d DATE); INSERT INTO m (id, v) VALUES (1, 0.1), (2, 0.2), (3, 0.3); CREATE TABLE agg (id INT PRIMARY KEY, total DECIMAL(12,2), mean DECIMAL(12,4))');
    src.executeSync('demo', 'INSERT INTO agg SELECT 1, SUM(v), AVG(v) FROM m');
    refused(src, "INSERT INTO m (id, d) VALUES (4, '2024-02-30')", 1292, "Incorrect date value: '2024-02-30' for column 'd' at row 1");
    refused(src, "UPDATE m SET d = '2023-02-29' WHERE id = 1", 1292);
    const out = await poll();
    expect(summary(out)).toEqual([['dbserver1.demo.agg', 'c', { id: 1 }]]);
    // Connect's Decimal: the unscaled value's bytes, 60 (0.60 at scale 2) and 2000 (0.2000 at scale 4)
    expect(env(out[0]!).after).toEqual({ id: 1, total: Buffer.from([60]).toString('base64'), mean: Buffer.from([0x07, 0xd0]).toString('base64') });
    expect(fields(out[0]!).total).toMatchObject({ name: 'org.apache.kafka.connect.data.Decimal', parameters: { scale: '2', 'connect.decimal.precision': '12' } });
  });
});
