import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startClickHouseService, type ClickHouseApi } from './service.js';
import { keeperOnlySystemCommand, translateDdl } from './translate.js';
import { tokenize } from './sql-lexer.js';

const VIRTUALS =
  ", `_topic` LowCardinality(String) MATERIALIZED '', `_key` String MATERIALIZED '', `_offset` UInt64 MATERIALIZED 0, `_partition` UInt64 MATERIALIZED 0, `_timestamp` Nullable(DateTime) MATERIALIZED NULL, `_timestamp_ms` Nullable(DateTime64(3)) MATERIALIZED NULL, `_headers.name` Array(String) MATERIALIZED [], `_headers.value` Array(String) MATERIALIZED []";

const opts = { dedupWindow: 10000 };

describe('cluster DDL translated for one embedded node', () => {
  it('turns the seed target table into ReplacingMergeTree, keeps its settings and adds the dedup window', () => {
    const ddl = readFileSync(path.resolve(__dirname, '../../../assets/cdc/target-table.sql'), 'utf8');
    const t = translateDdl(ddl, opts);
    expect(t.original).toBe(ddl);
    expect(t.sql).not.toContain("ON CLUSTER '{cluster}'");
    expect(t.sql).toMatch(/CREATE TABLE IF NOT EXISTS default\.customers\s+\(/);
    expect(t.sql).toContain('ENGINE = ReplacingMergeTree(created_at, __deleted)');
    expect(t.sql).toContain('SETTINGS non_replicated_deduplication_window = 10000, allow_experimental_replacing_merge_with_cleanup = 1');
    expect(t.notices).toHaveLength(2);
    expect(t.notices[0]).toMatch(/^ON CLUSTER '\{cluster\}' removed/);
    expect(t.notices[1]).toMatch(/^ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{shard\}\/\{database\}\/\{table\}', '\{replica\}', created_at, __deleted\) -> ReplacingMergeTree\(created_at, __deleted\)/);
  });

  it('handles Replicated engines without Keeper arguments and with no SETTINGS clause', () => {
    expect(translateDdl('CREATE TABLE t (a UInt8) ENGINE = ReplicatedMergeTree ORDER BY a', opts).sql).toBe('CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a SETTINGS non_replicated_deduplication_window = 10000');
    expect(translateDdl("CREATE TABLE t (a UInt8, v UInt8) ENGINE=ReplicatedSummingMergeTree('/p/{shard}', '{replica}', (v)) ORDER BY a COMMENT 'x'", opts).sql).toBe(
      "CREATE TABLE t (a UInt8, v UInt8) ENGINE=SummingMergeTree((v)) ORDER BY a SETTINGS non_replicated_deduplication_window = 10000 COMMENT 'x'",
    );
    // an explicit window is kept
    expect(translateDdl("CREATE TABLE t (a UInt8) ENGINE = ReplicatedMergeTree('/p', 'r') ORDER BY a SETTINGS non_replicated_deduplication_window = 5", opts).sql).toBe(
      'CREATE TABLE t (a UInt8) ENGINE = MergeTree() ORDER BY a SETTINGS non_replicated_deduplication_window = 5',
    );
  });

  it("takes the table's replicated_deduplication_window as the window, 0 included", () => {
    const off = translateDdl("CREATE TABLE t (a UInt8) ENGINE = ReplicatedMergeTree('/p', '{replica}') ORDER BY a SETTINGS replicated_deduplication_window = 0", opts);
    expect(off.sql).toBe('CREATE TABLE t (a UInt8) ENGINE = MergeTree() ORDER BY a SETTINGS non_replicated_deduplication_window = 0, replicated_deduplication_window = 0');
    expect(off.notices[0]).toContain("non_replicated_deduplication_window = 0 (the table's replicated_deduplication_window) so inserts are not deduplicated");
    expect(translateDdl("CREATE TABLE t (a UInt8) ENGINE = ReplicatedMergeTree('/p', '{replica}') ORDER BY a SETTINGS index_granularity = 1024, replicated_deduplication_window = 50", opts).sql).toContain(
      'SETTINGS non_replicated_deduplication_window = 50, index_granularity = 1024, replicated_deduplication_window = 50',
    );
  });

  it('puts the SETTINGS of a materialized view inner table before POPULATE, where the parser takes them', () => {
    expect(translateDdl('CREATE MATERIALIZED VIEW mv ENGINE = ReplicatedSummingMergeTree ORDER BY a POPULATE AS SELECT a, count() AS c FROM t GROUP BY a', opts).sql).toBe(
      'CREATE MATERIALIZED VIEW mv ENGINE = SummingMergeTree ORDER BY a SETTINGS non_replicated_deduplication_window = 10000 POPULATE AS SELECT a, count() AS c FROM t GROUP BY a',
    );
  });

  it('turns KeeperMap into EmbeddedRocksDB keeping the primary key', () => {
    const t = translateDdl("CREATE TABLE IF NOT EXISTS connect_state ON CLUSTER c1 (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap('connect_state') PRIMARY KEY `key`", opts);
    expect(t.sql).toBe('CREATE TABLE IF NOT EXISTS connect_state (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=EmbeddedRocksDB PRIMARY KEY `key` SETTINGS optimize_for_bulk_insert = 0');
    expect(t.notices.map((n) => n.split(':')[0])).toEqual(['ON CLUSTER c1 removed', "KeeperMap('connect_state') -> EmbeddedRocksDB"]);
  });

  it('turns a Kafka queue table (arguments or SETTINGS form) into Null and returns the consumer spec', () => {
    const a = translateDdl("CREATE TABLE db1.q (msg_json_str String) ENGINE = Kafka('k1:9092,k2:9092', 'demo.customers', 'g1', 'JSONAsString')", opts);
    expect(a.sql).toBe(`CREATE TABLE db1.q (msg_json_str String${VIRTUALS}) ENGINE = Null`);
    expect(a.kafka).toEqual({ database: 'db1', table: 'q', brokerList: 'k1:9092,k2:9092', topics: ['demo.customers'], group: 'g1', format: 'JSONAsString', settings: expect.any(Object) });
    const b = translateDdl("CREATE TABLE q2 (msg_json_str String) ENGINE = Kafka SETTINGS kafka_broker_list = 'k:9092', kafka_topic_list = 't1,t2', kafka_group_name = 'g', kafka_format = 'JSONAsString', kafka_num_consumers = 2", opts);
    expect(b.sql).toBe(`CREATE TABLE q2 (msg_json_str String${VIRTUALS}) ENGINE = Null`);
    expect(b.kafka).toMatchObject({ table: 'q2', topics: ['t1', 't2'], group: 'g', format: 'JSONAsString', settings: { kafka_num_consumers: '2' } });
    expect(b.notices[0]).toContain('-> Null');
  });

  it('adds the Kafka virtual columns as MATERIALIZED columns, those of stream mode only with it, never over a declared column', () => {
    const s = translateDdl("CREATE TABLE q (`_key` String, a UInt8, b ALIAS a + 1) ENGINE = Kafka('k:9092', 't', 'g', 'JSONEachRow') SETTINGS kafka_handle_error_mode = 'stream'", opts);
    expect(s.sql).toBe(
      "CREATE TABLE q (`_key` String, a UInt8, b ALIAS a + 1, `_topic` LowCardinality(String) MATERIALIZED '', `_offset` UInt64 MATERIALIZED 0, `_partition` UInt64 MATERIALIZED 0, `_timestamp` Nullable(DateTime) MATERIALIZED NULL, `_timestamp_ms` Nullable(DateTime64(3)) MATERIALIZED NULL, `_headers.name` Array(String) MATERIALIZED [], `_headers.value` Array(String) MATERIALIZED [], `_raw_message` String MATERIALIZED '', `_error` String MATERIALIZED '') ENGINE = Null",
    );
    expect(s.notices[0]).toContain('the virtual columns _topic, _offset, _partition, _timestamp, _timestamp_ms, _headers.name, _headers.value, _raw_message, _error are MATERIALIZED columns');
    const noList = translateDdl("CREATE TABLE q2 AS other ENGINE = Kafka('k:9092', 't', 'g', 'JSONEachRow')", opts);
    expect(noList.sql).toBe('CREATE TABLE q2 AS other ENGINE = Null');
    expect(noList.notices[0]).toContain('without a column list the virtual columns');
  });

  it('refuses what registerStorageKafka refuses: column defaults, fewer than one consumer, empty blocks, an unknown error mode', () => {
    const kafka = "ENGINE = Kafka('k:9092', 't', 'g', 'JSONEachRow')";
    expect(() => translateDdl(`CREATE TABLE q (a UInt8 DEFAULT 1) ${kafka}`, opts)).toThrow(/KafkaEngine doesn't support DEFAULT\/MATERIALIZED\/EPHEMERAL expressions for columns/);
    expect(() => translateDdl(`CREATE TABLE q (a UInt8, b UInt8 MATERIALIZED a) ${kafka}`, opts)).toThrow(/BAD_ARGUMENTS/);
    expect(translateDdl(`CREATE TABLE q (a Enum8('DEFAULT' = 1), \`default\` UInt8) ${kafka}`, opts).kafka).toBeDefined();
    expect(() => translateDdl(`CREATE TABLE q (a UInt8) ${kafka} SETTINGS kafka_num_consumers = 0`, opts)).toThrow(/Number of consumers can not be lower than 1/);
    expect(() => translateDdl(`CREATE TABLE q (a UInt8) ${kafka} SETTINGS kafka_max_block_size = 0`, opts)).toThrow(/kafka_max_block_size can not be lower than 1/);
    expect(() => translateDdl(`CREATE TABLE q (a UInt8) ${kafka} SETTINGS kafka_poll_max_batch_size = 0`, opts)).toThrow(/kafka_poll_max_batch_size can not be lower than 1/);
    expect(() => translateDdl(`CREATE TABLE q (a UInt8) ${kafka} SETTINGS kafka_handle_error_mode = 'loud'`, opts)).toThrow(/StreamingHandleErrorMode: 'loud'/);
  });

  it('reads the long positional Kafka form and says which settings have no effect embedded', () => {
    const t = translateDdl("CREATE TABLE q (a UInt8) ENGINE = Kafka('k:9092', 't', 'g', 'CSV', '\\n', '', 4, 100, 3, 1, 'client', 500, 2000, 0, 'stream', 1, 1)", opts);
    expect(t.kafka!.settings).toMatchObject({ kafka_num_consumers: '4', kafka_max_block_size: '100', kafka_skip_broken_messages: '3', kafka_commit_every_batch: '1', kafka_flush_interval_ms: '2000', kafka_handle_error_mode: 'stream', kafka_commit_on_select: '1' });
    expect(t.sql).toContain('`_error` String MATERIALIZED');
    const n = t.notices[0]!;
    expect(n).toContain('kafka_num_consumers = 4: one consumer reads every partition');
    expect(n).toContain('kafka_flush_interval_ms has no effect (messages are inserted as soon as they are in the topic log');
    expect(n).toContain('kafka_commit_every_batch has no effect');
    expect(n).toContain('kafka_commit_on_select has no effect');
    expect(n).not.toContain('kafka_max_block_size has no effect');
    expect(n).not.toContain('kafka_skip_broken_messages has no effect');
    const dlq = translateDdl("CREATE TABLE q (a UInt8) ENGINE = Kafka('k:9092', 't', 'g', 'CSV') SETTINGS kafka_handle_error_mode = 'dead_letter_queue'", opts);
    expect(dlq.notices[0]).toContain("'dead_letter_queue': broken messages are skipped and logged");
    expect(dlq.sql).not.toContain('_error');
  });

  it('drops ON CLUSTER from statement heads only, and leaves strings, comments and join conditions alone', () => {
    expect(translateDdl("ALTER TABLE t ON CLUSTER '{cluster}' DELETE WHERE 1", opts).sql).toBe('ALTER TABLE t DELETE WHERE 1');
    expect(translateDdl('DROP TABLE IF EXISTS t ON CLUSTER main SYNC', opts).sql).toBe('DROP TABLE IF EXISTS t SYNC');
    expect(translateDdl('OPTIMIZE TABLE t ON CLUSTER main FINAL CLEANUP', opts).sql).toBe('OPTIMIZE TABLE t FINAL CLEANUP');
    expect(translateDdl('RENAME TABLE a TO b, c TO d ON CLUSTER `my-cluster`', opts).sql).toBe('RENAME TABLE a TO b, c TO d');
    expect(translateDdl("CREATE DATABASE d ON CLUSTER c ENGINE = Replicated('/db/d', '{shard}', '{replica}')", opts).sql).toBe('CREATE DATABASE d ENGINE = Atomic');
    const plain = "CREATE TABLE t (a String DEFAULT 'ON CLUSTER x') ENGINE = MergeTree ORDER BY a /* ON CLUSTER y */ -- ON CLUSTER z";
    expect(translateDdl(plain, opts)).toEqual({ original: plain, sql: plain, notices: [] });
    const join = 'CREATE VIEW v AS SELECT c.host FROM nodes AS n JOIN system.clusters AS c ON cluster = n.name';
    expect(translateDdl(join, opts).sql).toBe(join);
    const grant = 'GRANT SELECT ON cluster.t TO u';
    expect(translateDdl(grant, opts).sql).toBe(grant);
  });

  it('translates each statement of a multi-statement text on its own', () => {
    const t = translateDdl(
      "CREATE TABLE s (k String, v String) ENGINE = KeeperMap('/p') PRIMARY KEY k;\nCREATE TABLE a ON CLUSTER c (x UInt8) ENGINE = ReplicatedMergeTree ORDER BY x;\nSYSTEM SYNC DATABASE REPLICA d;\nSYSTEM SYNC REPLICA a;",
      opts,
    );
    expect(t.sql).toBe(
      'CREATE TABLE s (k String, v String) ENGINE = EmbeddedRocksDB PRIMARY KEY k SETTINGS optimize_for_bulk_insert = 0;\nCREATE TABLE a (x UInt8) ENGINE = MergeTree ORDER BY x SETTINGS non_replicated_deduplication_window = 10000;\n\nSYSTEM WAIT LOADING PARTS a;',
    );
    expect(t.notices).toHaveLength(5);
  });

  it('refuses what has no single-node equivalent with the ClickHouse error and what to do', () => {
    expect(() => translateDdl("CREATE TABLE t (a UInt8) ENGINE = ReplicatedMergeTree('/only/a/path') ORDER BY a", opts)).toThrow(
      /^Code: 36\. DB::Exception: Expected two string literal arguments: zookeeper_path and replica_name.*\(BAD_ARGUMENTS\)$/,
    );
    expect(() => translateDdl('CREATE TABLE s (k String, v String) ENGINE = KeeperMap(\'/p\')', opts)).toThrow(/Code: 36\. DB::Exception: StorageKeeperMap requires one column in primary key: add PRIMARY KEY <column>/);
    expect(() => translateDdl("CREATE TABLE s (k String, j String) ENGINE = KeeperMap('/p') PRIMARY KEY (k, j)", opts)).toThrow(/StorageKeeperMap requires one column in primary key/);
    expect(() => translateDdl("SYSTEM DROP REPLICA 'r2' FROM TABLE t", opts)).toThrow(/Code: 999\. DB::Exception: SYSTEM DROP REPLICA needs ClickHouse Keeper/);
  });

  it('recognises SYSTEM commands that need Keeper', () => {
    expect(keeperOnlySystemCommand(tokenize("SYSTEM DROP REPLICA 'r' FROM TABLE db.t"))).toBe('SYSTEM DROP REPLICA');
    expect(keeperOnlySystemCommand(tokenize("system drop database replica 'r' from database d"))).toBe('SYSTEM DROP DATABASE REPLICA');
    // these have single-node equivalents (translateDdl) or run as they are in chDB
    expect(keeperOnlySystemCommand(tokenize('SYSTEM SYNC REPLICA db.t'))).toBeUndefined();
    expect(keeperOnlySystemCommand(tokenize('SYSTEM RESTART REPLICAS'))).toBeUndefined();
    expect(keeperOnlySystemCommand(tokenize('SYSTEM FLUSH LOGS'))).toBeUndefined();
  });
});

// The translated statements run in real chDB through the HTTP interface, which reports each
// rewrite in X-Loupe-Notice.
describe('translated cluster DDL running in embedded ClickHouse', () => {
  let dir: string;
  let ch: ServiceHandle<ClickHouseApi>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-translate-'));
    ch = await startClickHouseService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} });
  });
  afterAll(async () => {
    await ch?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (sql: string) => {
    const res = await fetch(`${ch.url}/`, { method: 'POST', body: sql });
    return { status: res.status, body: await res.text(), notice: res.headers.get('x-loupe-notice') ?? '' };
  };
  const ok = async (sql: string) => {
    const r = await run(sql);
    expect(r.body, sql).not.toMatch(/Exception/);
    expect(r.status, sql).toBe(200);
    return r;
  };
  const rows = async (sql: string) => (await ok(`${sql} FORMAT JSONEachRow`)).body.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const engineOf = async (table: string, database = 'default') => (await rows(`SELECT engine, engine_full FROM system.tables WHERE database = '${database}' AND name = '${table}'`))[0] as { engine: string; engine_full: string };

  it('creates every Replicated MergeTree family, with path and replica, with macros and in the short form', async () => {
    const cols = '(k UInt64, v UInt64, d UInt8, s Int8, x AggregateFunction(sum, UInt64), y UInt64)';
    const cases: [string, string, string, string?][] = [
      ['rmt', "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')", 'MergeTree'],
      ['rrmt0', "ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}')", 'ReplacingMergeTree'],
      ['rrmt1', "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/rrmt1', 'replica-1', v)", 'ReplacingMergeTree(v)'],
      ['rrmt2', "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', v, d)", 'ReplacingMergeTree(v, d)'],
      ['rsmt', "ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{table}', '{replica}', (v, y))", 'SummingMergeTree((v, y))'],
      ['ramt', "ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{table}', '{replica}')", 'AggregatingMergeTree', '(k UInt64, x AggregateFunction(sum, UInt64))'],
      ['rcmt', "ReplicatedCollapsingMergeTree('/clickhouse/tables/{shard}/{table}', '{replica}', s)", 'CollapsingMergeTree(s)'],
      ['rvcmt', "ReplicatedVersionedCollapsingMergeTree('/clickhouse/tables/{shard}/{table}', '{replica}', s, d)", 'VersionedCollapsingMergeTree(s, d)'],
      ['short1', 'ReplicatedMergeTree()', 'MergeTree'],
      ['short2', 'ReplicatedMergeTree', 'MergeTree'],
      ['short3', 'ReplicatedReplacingMergeTree(v, d)', 'ReplacingMergeTree(v, d)'],
      ['short4', 'ReplicatedCollapsingMergeTree(s)', 'CollapsingMergeTree(s)'],
    ];
    for (const [name, engine, want, columns] of cases) {
      const r = await ok(`CREATE TABLE ${name} ON CLUSTER '{cluster}' ${columns ?? cols} ENGINE = ${engine} ORDER BY k`);
      expect(r.notice).toContain(`${engine} -> `);
      expect(r.notice).toContain("ON CLUSTER '{cluster}' removed");
      const e = await engineOf(name);
      expect(e.engine_full.startsWith(`${want} ORDER BY k`), `${name}: ${e.engine_full}`).toBe(true);
      expect(e.engine_full).toContain('non_replicated_deduplication_window = 10000');
    }
    // the window makes a repeated token a no-op, as on the replicated table
    for (let i = 0; i < 2; i++) await ok("INSERT INTO rrmt2 (k, v, d, s, y) SETTINGS insert_deduplication_token = 'tok-1' VALUES (1, 1, 0, 1, 1)");
    expect(await rows('SELECT count() AS n FROM rrmt2')).toEqual([{ n: 1 }]);
  });

  it('refuses Graphite, whose rollup rules live in the server configuration', async () => {
    const r = await run("CREATE TABLE g (Path String, Time DateTime, Value Float64, Timestamp UInt32) ENGINE = ReplicatedGraphiteMergeTree('/clickhouse/tables/{shard}/g', '{replica}', 'graphite_rollup') ORDER BY (Path, Time)");
    expect(r.status).toBe(500);
    expect(r.body).toMatch(/^Code: 139\. DB::Exception: No 'graphite_rollup' element in configuration file: GraphiteMergeTree takes its rollup rules .* Create the table with ENGINE = MergeTree .* \(NO_ELEMENTS_IN_CONFIG\) \(version /);
    expect((await run("CREATE TABLE g2 (Path String, Time DateTime, Value Float64, Timestamp UInt32) ENGINE = ReplicatedGraphiteMergeTree('graphite_rollup') ORDER BY Path")).body).toMatch(/^Code: 139\./);
    expect(await rows("SELECT name FROM system.tables WHERE name IN ('g', 'g2')")).toEqual([]);
  });

  it('drops storage_policy and disk, which name disks of the server configuration', async () => {
    const r = await ok("CREATE TABLE sp (k UInt64) ENGINE = ReplicatedMergeTree('/t/{shard}/sp', '{replica}') ORDER BY k SETTINGS storage_policy = 'hot_cold', index_granularity = 4096");
    expect(r.notice).toContain("SETTINGS storage_policy = 'hot_cold' removed");
    expect((await engineOf('sp')).engine_full).toBe('MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 10000, index_granularity = 4096');
    await ok("CREATE TABLE dk (k UInt64) ENGINE = MergeTree ORDER BY k SETTINGS disk = 's3_disk'");
  });

  it('removes ON CLUSTER (quoted, unquoted, back-quoted, macro) from every statement kind', async () => {
    await ok('CREATE DATABASE IF NOT EXISTS oc ON CLUSTER main');
    await ok("CREATE TABLE oc.src ON CLUSTER '{cluster}' (k UInt64, v String) ENGINE = ReplicatedMergeTree ORDER BY k");
    await ok('CREATE TABLE oc.dst ON CLUSTER `my-cluster` (k UInt64, v String) ENGINE = ReplicatedReplacingMergeTree ORDER BY k');
    await ok('CREATE MATERIALIZED VIEW oc.mv ON CLUSTER "main" TO oc.dst AS SELECT k, v FROM oc.src');
    await ok("CREATE DICTIONARY oc.dict ON CLUSTER 'main' (k UInt64, v String) PRIMARY KEY k SOURCE(CLICKHOUSE(DB 'oc' TABLE 'dst')) LIFETIME(0) LAYOUT(HASHED())");
    await ok("INSERT INTO oc.src VALUES (1, 'a')");
    expect(await rows('SELECT k, v FROM oc.dst')).toEqual([{ k: 1, v: 'a' }]);
    await ok("ALTER TABLE oc.src ON CLUSTER main ADD COLUMN IF NOT EXISTS w UInt8 DEFAULT 7");
    await ok("ALTER TABLE oc.src ON CLUSTER '{cluster}' UPDATE v = 'b' WHERE k = 1 SETTINGS mutations_sync = 2");
    expect(await rows('SELECT v, w FROM oc.src')).toEqual([{ v: 'b', w: 7 }]);
    await ok('SYSTEM STOP MERGES ON CLUSTER main oc.src');
    await ok('SYSTEM START MERGES ON CLUSTER main oc.src');
    await ok("SYSTEM RELOAD DICTIONARY ON CLUSTER 'main' oc.dict");
    await ok('OPTIMIZE TABLE oc.dst ON CLUSTER main FINAL');
    await ok('DROP DICTIONARY oc.dict ON CLUSTER main');
    await ok('RENAME TABLE oc.dst TO oc.dst2 ON CLUSTER main');
    await ok('TRUNCATE TABLE oc.src ON CLUSTER main');
    expect(await rows('SELECT count() AS n FROM oc.src')).toEqual([{ n: 0 }]);
    await ok('DROP VIEW oc.mv ON CLUSTER main SYNC');
    const drop = await ok('DROP TABLE oc.src ON CLUSTER main SYNC');
    expect(drop.notice).toBe('ON CLUSTER main removed: embedded ClickHouse (chDB) is a single node, the statement runs on it alone');
    await ok('DROP DATABASE oc ON CLUSTER main SYNC');
    // an unquoted macro is not a cluster name to ClickHouse either
    expect((await run('CREATE TABLE bad ON CLUSTER {cluster} (k UInt8) ENGINE = MergeTree ORDER BY k')).body).toMatch(/^Code: 62\..*SYNTAX_ERROR/s);
  });

  it('leaves ON CLUSTER in string literals, comments and join conditions alone', async () => {
    const r = await ok("CREATE TABLE lit (k UInt64, s String DEFAULT 'x ON CLUSTER y') ENGINE = MergeTree /* ON CLUSTER c */ ORDER BY k -- ON CLUSTER d");
    expect(r.notice).toBe('');
    await ok('INSERT INTO lit (k) VALUES (1)');
    expect(await rows('SELECT s FROM lit')).toEqual([{ s: 'x ON CLUSTER y' }]);
    await ok('CREATE TABLE nodes (cluster String, n UInt8) ENGINE = MergeTree ORDER BY n');
    const v = await ok('CREATE VIEW jv AS SELECT a.n FROM nodes AS a JOIN nodes AS b ON cluster = b.cluster');
    expect(v.notice).toBe('');
  });

  it('turns a Replicated database into Atomic, with its settings removed, and takes short-form tables in it', async () => {
    const r = await ok("CREATE DATABASE rdb ON CLUSTER '{cluster}' ENGINE = Replicated('/clickhouse/databases/{uuid}', '{shard}', '{replica}') SETTINGS max_broken_tables_ratio = 1, collection_name = 'rdb'");
    expect(r.notice).toContain("Replicated('/clickhouse/databases/{uuid}', '{shard}', '{replica}') -> Atomic");
    expect(r.notice).toContain("SETTINGS max_broken_tables_ratio = 1, collection_name = 'rdb' removed");
    expect(await rows("SELECT engine FROM system.databases WHERE name = 'rdb'")).toEqual([{ engine: 'Atomic' }]);
    await ok('CREATE TABLE rdb.t (k UInt64) ENGINE = ReplicatedMergeTree ORDER BY k');
    expect((await engineOf('t', 'rdb')).engine).toBe('MergeTree');
    const sync = await ok('SYSTEM SYNC DATABASE REPLICA rdb');
    expect(sync.notice).toContain('SYSTEM SYNC DATABASE REPLICA rdb skipped');
  });

  it("creates the sink's KeeperMap state table as EmbeddedRocksDB, keys_limit reported, and refuses one without a single-column key", async () => {
    // the shape core/cdc/connect/plugins/clickhouse-sink/state.ts sends, with keeperOnCluster set
    const r = await ok("CREATE TABLE IF NOT EXISTS `connect_state` ON CLUSTER '{cluster}' (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap('/kafka-connect') PRIMARY KEY `key`;");
    expect(r.notice).toContain("KeeperMap('/kafka-connect') -> EmbeddedRocksDB");
    expect((await engineOf('connect_state')).engine_full).toBe('EmbeddedRocksDB PRIMARY KEY key SETTINGS optimize_for_bulk_insert = 0');
    await ok("INSERT INTO connect_state VALUES ('t-0', 0, 9, 'BEFORE_PROCESSING')");
    await ok("INSERT INTO connect_state VALUES ('t-0', 0, 9, 'AFTER_PROCESSING')");
    expect(await rows('SELECT * FROM connect_state')).toEqual([{ key: 't-0', minOffset: 0, maxOffset: 9, state: 'AFTER_PROCESSING' }]);
    const lim = await ok("CREATE TABLE kl (k String PRIMARY KEY, v String) ENGINE = KeeperMap('/kl', 100)");
    expect(lim.notice).toContain('keys_limit 100 is not enforced');
    const none = await run("CREATE TABLE kn (k String, v String) ENGINE = KeeperMap('/kn')");
    expect(none.body).toMatch(/^Code: 36\. DB::Exception: StorageKeeperMap requires one column in primary key: add PRIMARY KEY <column>.*\(BAD_ARGUMENTS\)/);
  });

  it('makes a Distributed table an alias of its local table: reads and inserts reach it, ALTER and TRUNCATE stay on the alias', async () => {
    await ok("CREATE TABLE events_local ON CLUSTER '{cluster}' (k UInt64, v UInt64) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', v) ORDER BY k");
    const r = await ok("CREATE TABLE events ON CLUSTER '{cluster}' AS events_local ENGINE = Distributed('{cluster}', default, events_local, cityHash64(k)) SETTINGS fsync_after_insert = 1");
    expect(r.notice).toContain("Distributed('{cluster}', default, events_local, cityHash64(k)) -> Alias(default, events_local): on a one-node cluster a Distributed table reads and writes the local table default.events_local");
    expect(r.notice).toContain('AS events_local removed');
    expect(r.notice).toContain('SETTINGS fsync_after_insert = 1 removed');
    expect((await engineOf('events')).engine).toBe('Alias');
    await ok('INSERT INTO events VALUES (1, 1), (2, 1)');
    await ok('INSERT INTO events VALUES (1, 2)');
    expect(await rows('SELECT k, v FROM events FINAL ORDER BY k')).toEqual([{ k: 1, v: 2 }, { k: 2, v: 1 }]);
    expect(await rows('SELECT count() AS n FROM events_local')).toEqual([{ n: 3 }]);

    const alter = await ok('ALTER TABLE events ON CLUSTER main ADD COLUMN extra UInt8');
    expect(alter.notice).toContain('ALTER TABLE events skipped: events stands in for a Distributed table over default.events_local');
    const trunc = await ok('TRUNCATE TABLE events ON CLUSTER main');
    expect(trunc.notice).toContain('TRUNCATE events skipped');
    expect(await rows("SELECT name FROM system.columns WHERE table = 'events_local' ORDER BY position")).toEqual([{ name: 'k' }, { name: 'v' }]);
    expect(await rows('SELECT count() AS n FROM events_local')).toEqual([{ n: 3 }]);
    expect((await ok('SYSTEM FLUSH DISTRIBUTED events')).notice).toContain('SYSTEM FLUSH DISTRIBUTED events skipped');
    const opt = await run('OPTIMIZE TABLE events FINAL');
    expect(opt.body).toMatch(/^Code: 48\. DB::Exception: Method optimize is not supported by storage Distributed: events stands in for .* Run the statement on default\.events_local\. \(NOT_IMPLEMENTED\)/);
    expect((await run('ALTER TABLE events DELETE WHERE k = 1')).body).toMatch(/^Code: 48\./);
    // a local table is not an alias: FLUSH DISTRIBUTED fails there as on a server
    expect((await run('SYSTEM FLUSH DISTRIBUTED events_local')).body).toMatch(/is not distributed/);
    await ok('DROP TABLE events ON CLUSTER main SYNC');
    expect(await rows('SELECT count() AS n FROM events_local')).toEqual([{ n: 3 }]);
  });

  it('answers SYSTEM SYNC/RESTART/RESTORE REPLICA with WAIT LOADING PARTS and refuses DROP REPLICA', async () => {
    await ok("CREATE TABLE rep ON CLUSTER main (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/rep', '{replica}') ORDER BY k");
    for (const stmt of ['SYSTEM SYNC REPLICA rep', 'SYSTEM SYNC REPLICA ON CLUSTER main default.rep STRICT', 'SYSTEM SYNC REPLICA rep LIGHTWEIGHT', 'SYSTEM RESTART REPLICA rep', 'SYSTEM RESTORE REPLICA default.rep']) {
      const r = await ok(stmt);
      expect(r.notice, stmt).toMatch(/-> SYSTEM WAIT LOADING PARTS (default\.)?rep:/);
    }
    await ok('SYSTEM RESTART REPLICAS');
    await ok('SYSTEM STOP FETCHES rep');
    await ok('SYSTEM START REPLICATION QUEUES rep');
    expect((await run('SYSTEM SYNC REPLICA nope')).body).toMatch(/^Code: 60\..*\(UNKNOWN_TABLE\)/);
    const drop = await run("SYSTEM DROP REPLICA 'r2' FROM TABLE rep");
    expect(drop.body).toMatch(/^Code: 999\. DB::Exception: SYSTEM DROP REPLICA needs ClickHouse Keeper/);
  });

  it('translates a multi-statement script statement by statement, each running in chDB', async () => {
    const script = "CREATE TABLE ms_a ON CLUSTER c (k UInt64) ENGINE = ReplicatedMergeTree('/t/ms_a', '{replica}') ORDER BY k;\nCREATE TABLE ms_s (k String, v String) ENGINE = KeeperMap('/ms') PRIMARY KEY k;\nSYSTEM SYNC REPLICA ms_a;";
    const t = ch.api.translate(script);
    expect(t.notices).toHaveLength(4);
    for (const stmt of t.sql.split(';').filter((s) => s.trim())) await ok(stmt);
    expect((await engineOf('ms_s')).engine).toBe('EmbeddedRocksDB');
  });
});
