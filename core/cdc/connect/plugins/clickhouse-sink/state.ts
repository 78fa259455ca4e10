/**
 * The exactly-once state store, as KeeperStateProvider (tag v1.3.4) keeps it: one row per
 * topic-partition in the table named by `zkDatabase` (default `connect_state`),
 * `(key String, minOffset BIGINT, maxOffset BIGINT, state String)`, a KeeperMap table at the
 * Keeper path `zkPath` (default `/kafka-connect`). Embedded ClickHouse turns KeeperMap into
 * EmbeddedRocksDB with a notice.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { ConnectException } from '../../plugin.js';
import type { LeanHttp } from './lean-http.js';

export type ProcessingState = 'BEFORE_PROCESSING' | 'AFTER_PROCESSING';

export interface StateRecord {
  key: string;
  minOffset: number;
  maxOffset: number;
  state: ProcessingState;
}

export const KEEPER_MAP_HINT =
  'exactlyOnce=true requires keeper_map_path_prefix in the ClickHouse server configuration, e.g. <keeper_map_path_prefix>/keeper_map_tables</keeper_map_path_prefix>, and a Keeper (ClickHouse Keeper or ZooKeeper) the server can reach';

/** Utils.escapeName: backticks are dropped, not escaped. */
const escapeName = (name: string) => `\`${name.replace(/`/g, '')}\``;
const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The state write, as the connector sends it: KeeperMap overwrites by key, and
 * wait_for_async_insert keeps the write synchronous should the server or profile turn async_insert on.
 */
export function stateWriteQuery(zkDatabase: string, key: string, minOffset: number, maxOffset: number, state: ProcessingState): string {
  return `INSERT INTO ${escapeName(zkDatabase)} SETTINGS wait_for_async_insert=1 VALUES (${sqlString(key)}, ${minOffset}, ${maxOffset}, '${state}');`;
}

/** The state table's CREATE, as KeeperStateProvider sends it. */
export function stateTableQuery(opts: StateStoreOptions): string {
  const cluster = opts.onCluster ? ` ON CLUSTER ${opts.onCluster}` : '';
  return `CREATE TABLE IF NOT EXISTS ${escapeName(opts.zkDatabase)}${cluster} (\`key\` String, minOffset BIGINT, maxOffset BIGINT, state String) ENGINE=KeeperMap(${sqlString(opts.zkPath)}) PRIMARY KEY \`key\`;`;
}

export interface StateStoreOptions {
  onCluster: string;
  zkPath: string;
  zkDatabase: string;
}

export class StateStore {
  private readonly table: string;

  constructor(
    private readonly client: ClickHouseClient,
    private readonly opts: StateStoreOptions,
    /** The writes' lean path (the same request as the client's command); the client when absent. */
    private readonly lean?: LeanHttp,
  ) {
    this.table = escapeName(opts.zkDatabase);
  }

  /** Creates the state table; a server without keeper_map_path_prefix gets a clear message. */
  async ensureTable(): Promise<void> {
    try {
      await this.client.command({ query: stateTableQuery(this.opts) });
    } catch (err) {
      const msg = (err as Error).message;
      if (/keeper_map_path_prefix|KeeperMap is disabled/i.test(msg)) throw new ConnectException(`${KEEPER_MAP_HINT}. The server said: ${msg}`);
      throw new ConnectException(`Could not create the exactly-once state table ${this.opts.zkDatabase}: ${msg}`);
    }
  }

  async get(key: string): Promise<StateRecord | undefined> {
    const rs = await this.client.query({
      query: `SELECT \`key\`, minOffset, maxOffset, state FROM ${this.table} WHERE \`key\` = {k:String}`,
      query_params: { k: key },
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ key: string; minOffset: number | string; maxOffset: number | string; state: string }>();
    const r = rows[0];
    if (!r) return undefined;
    return { key: r.key, minOffset: Number(r.minOffset), maxOffset: Number(r.maxOffset), state: r.state as ProcessingState };
  }

  async set(key: string, minOffset: number, maxOffset: number, state: ProcessingState): Promise<void> {
    const query = stateWriteQuery(this.opts.zkDatabase, key, minOffset, maxOffset, state);
    if (this.lean) await this.lean.command(query);
    else await this.client.command({ query });
  }
}
