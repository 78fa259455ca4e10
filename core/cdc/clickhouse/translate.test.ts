import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { keeperOnlySystemCommand, translateDdl } from './translate.js';
import { tokenize } from './sql-lexer.js';

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

  it('turns KeeperMap into EmbeddedRocksDB keeping the primary key', () => {
    const t = translateDdl("CREATE TABLE IF NOT EXISTS connect_state ON CLUSTER c1 (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap('connect_state') PRIMARY KEY `key`", opts);
    expect(t.sql).toBe('CREATE TABLE IF NOT EXISTS connect_state  (`key` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=EmbeddedRocksDB PRIMARY KEY `key` SETTINGS optimize_for_bulk_insert = 0');
    expect(t.notices.map((n) => n.split(':')[0])).toEqual(['ON CLUSTER c1 removed', "KeeperMap('connect_state') -> EmbeddedRocksDB"]);
  });

  it('turns a Kafka queue table (arguments or SETTINGS form) into Null and returns the consumer spec', () => {
    const a = translateDdl("CREATE TABLE db1.q (msg_json_str String) ENGINE = Kafka('k1:9092,k2:9092', 'demo.customers', 'g1', 'JSONAsString')", opts);
    expect(a.sql).toBe('CREATE TABLE db1.q (msg_json_str String) ENGINE = Null');
    expect(a.kafka).toEqual({ database: 'db1', table: 'q', brokerList: 'k1:9092,k2:9092', topics: ['demo.customers'], group: 'g1', format: 'JSONAsString', settings: expect.any(Object) });
    const b = translateDdl("CREATE TABLE q2 (msg_json_str String) ENGINE = Kafka SETTINGS kafka_broker_list = 'k:9092', kafka_topic_list = 't1,t2', kafka_group_name = 'g', kafka_format = 'JSONAsString', kafka_num_consumers = 2", opts);
    expect(b.sql).toBe('CREATE TABLE q2 (msg_json_str String) ENGINE = Null');
    expect(b.kafka).toMatchObject({ table: 'q2', topics: ['t1', 't2'], group: 'g', format: 'JSONAsString', settings: { kafka_num_consumers: '2' } });
    expect(b.notices[0]).toContain('-> Null');
  });

  it('drops ON CLUSTER from every statement kind and leaves plain DDL and strings alone', () => {
    expect(translateDdl("ALTER TABLE t ON CLUSTER '{cluster}' DELETE WHERE 1", opts).sql).toBe('ALTER TABLE t  DELETE WHERE 1');
    expect(translateDdl('DROP TABLE IF EXISTS t ON CLUSTER main SYNC', opts).sql).toBe('DROP TABLE IF EXISTS t  SYNC');
    expect(translateDdl('OPTIMIZE TABLE t ON CLUSTER main FINAL CLEANUP', opts).sql).toBe('OPTIMIZE TABLE t  FINAL CLEANUP');
    expect(translateDdl("CREATE DATABASE d ON CLUSTER c ENGINE = Replicated('/db/d', '{shard}', '{replica}')", opts).sql).toBe('CREATE DATABASE d  ENGINE = Atomic');
    const plain = "CREATE TABLE t (a String DEFAULT 'ON CLUSTER x') ENGINE = MergeTree ORDER BY a";
    expect(translateDdl(plain, opts)).toEqual({ original: plain, sql: plain, notices: [] });
  });

  it('recognises SYSTEM commands that need Keeper', () => {
    expect(keeperOnlySystemCommand(tokenize('SYSTEM SYNC REPLICA db.t'))).toBe('SYSTEM SYNC REPLICA');
    expect(keeperOnlySystemCommand(tokenize('system restart replicas'))).toBe('SYSTEM RESTART REPLICAS');
    expect(keeperOnlySystemCommand(tokenize('SYSTEM FLUSH LOGS'))).toBeUndefined();
  });
});
