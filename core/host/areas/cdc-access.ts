/**
 * How the cdc area reaches the embedded pipeline and the ClickHouse target: the connect service's
 * API, ClickHouse queries read exactly (64-bit integers as they are), a table's parts, and the
 * quoting and identifier rules both the area and its target views use.
 */
import { z } from 'zod';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { CdcTargetRows } from '../contract/cdc.js';
import type { ConnectApi } from '../../cdc/connect/service.js';
import { parseExactJson, stringifyExactJson } from '../../common/exact-json.js';
import { engineColumns, type EngineColumns } from './cdc-versions.js';

export const ident = z.string().regex(/^[A-Za-z0-9_$.-]{1,128}$/, 'a plain identifier');

export const qid = (s: string) => '`' + s.replace(/`/g, '``') + '`';

export function embedded(rt: HostRuntime): ConnectApi {
  const api = rt.handle<ConnectApi>('connect')?.api;
  if (!api) throw new HostCallError('The embedded connect service is not running (the source, change log and topics are shown for the embedded pipeline).', undefined, 'unavailable');
  return api;
}

export function clickhouse(rt: HostRuntime): ClickHouseClient {
  // ClickHouse writes an Int64/UInt64 in JSON as a bare number (chDB's output_format_json_quote_64bit_integers is 0): read exactly
  return createClient({ url: rt.urlOf('clickhouse'), request_timeout: 60_000, json: { parse: parseExactJson as <T>(text: string) => T, stringify: stringifyExactJson } });
}

export async function chRows<T>(rt: HostRuntime, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const client = clickhouse(rt);
  try {
    const rs = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return (await rs.json()) as T[];
  } catch (err) {
    throw new HostCallError((err as Error).message, { code: (err as { code?: string }).code, type: (err as { type?: string }).type });
  } finally {
    await client.close();
  }
}

export async function parts(rt: HostRuntime, database: string, table: string): Promise<CdcTargetRows['parts']> {
  const rows = await chRows<{ name: string; rows: string | number; level: number; min_block_number: string | number; max_block_number: string | number; active: number }>(
    rt,
    'SELECT name, rows, level, min_block_number, max_block_number, active FROM system.parts WHERE database = {db:String} AND table = {t:String} ORDER BY min_block_number, name',
    { db: database, t: table },
  );
  return rows.map((r) => ({ name: r.name, rows: Number(r.rows), level: r.level, minBlock: Number(r.min_block_number), maxBlock: Number(r.max_block_number), active: r.active === 1 }));
}

/** A target table's id (changes when it is dropped and made again) and its engine's roles: key, version, is_deleted, all columns. */
export async function tableInfo(rt: HostRuntime, database: string, table: string): Promise<{ uuid: string; columns: EngineColumns & { all: string[] } }> {
  const [t] = await chRows<{ uuid: string; engine_full: string; sorting_key: string }>(
    rt,
    'SELECT toString(uuid) AS uuid, engine_full, sorting_key FROM system.tables WHERE database = {db:String} AND name = {t:String}',
    { db: database, t: table },
  );
  if (!t) throw new HostCallError(`Code: 60. DB::Exception: Table ${database}.${table} does not exist. (UNKNOWN_TABLE)`, { code: '60', type: 'UNKNOWN_TABLE' });
  const cols = await chRows<{ name: string }>(rt, 'SELECT name FROM system.columns WHERE database = {db:String} AND table = {t:String} ORDER BY position', { db: database, t: table });
  return { uuid: t.uuid, columns: { ...engineColumns(t.engine_full, t.sorting_key), all: cols.map((c) => c.name) } };
}
