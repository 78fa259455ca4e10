/**
 * The exactly-once state store: one row per topic-partition in `connect_state`
 * (`key String, minOffset Int64, maxOffset Int64, state String`), a KeeperMap table on a
 * ClickHouse server (embedded ClickHouse turns it into EmbeddedRocksDB with a notice).
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { ConnectException } from '../../plugin.js';

export type ProcessingState = 'BEFORE_PROCESSING' | 'AFTER_PROCESSING';

export interface StateRecord {
  key: string;
  minOffset: number;
  maxOffset: number;
  state: ProcessingState;
}

export const STATE_TABLE = 'connect_state';

export const KEEPER_MAP_HINT =
  'exactlyOnce=true requires keeper_map_path_prefix in the ClickHouse server configuration, e.g. <keeper_map_path_prefix>/keeper_map_tables</keeper_map_path_prefix>, and a Keeper (ClickHouse Keeper or ZooKeeper) the server can reach';

export class StateStore {
  constructor(
    private readonly client: ClickHouseClient,
    private readonly onCluster: string,
  ) {}

  /** Creates the state table; a server without keeper_map_path_prefix gets a clear message. */
  async ensureTable(): Promise<void> {
    const cluster = this.onCluster ? ` ON CLUSTER ${this.onCluster}` : '';
    try {
      await this.client.command({
        query: `CREATE TABLE IF NOT EXISTS ${STATE_TABLE}${cluster} (\`key\` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap('${STATE_TABLE}') PRIMARY KEY \`key\``,
      });
    } catch (err) {
      const msg = (err as Error).message;
      if (/keeper_map_path_prefix|KeeperMap is disabled/i.test(msg)) throw new ConnectException(`${KEEPER_MAP_HINT}. The server said: ${msg}`);
      throw new ConnectException(`Could not create the exactly-once state table ${STATE_TABLE}: ${msg}`);
    }
  }

  async get(topic: string, partition: number): Promise<StateRecord | undefined> {
    const rs = await this.client.query({
      query: `SELECT \`key\`, minOffset, maxOffset, state FROM ${STATE_TABLE} WHERE \`key\` = {k:String}`,
      query_params: { k: `${topic}-${partition}` },
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ key: string; minOffset: number | string; maxOffset: number | string; state: string }>();
    const r = rows[0];
    if (!r) return undefined;
    return { key: r.key, minOffset: Number(r.minOffset), maxOffset: Number(r.maxOffset), state: r.state as ProcessingState };
  }

  async set(topic: string, partition: number, minOffset: number, maxOffset: number, state: ProcessingState): Promise<void> {
    await this.client.insert({
      table: STATE_TABLE,
      values: [{ key: `${topic}-${partition}`, minOffset, maxOffset, state }],
      format: 'JSONEachRow',
      // KeeperMap overwrites by key; never let deduplication swallow a state change.
      clickhouse_settings: { insert_deduplicate: 0, async_insert: 0 },
    });
  }
}
