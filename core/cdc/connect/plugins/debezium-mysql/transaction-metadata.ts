/**
 * Debezium's transaction metadata and heartbeat records (TransactionMonitor, TransactionContext
 * and HeartbeatImpl at tag v1.9.8.Final): their key and value schemas, and the transaction state
 * the source task keeps in its offsets.
 */
import type { Schema } from '../../plugin.js';

/** A transaction whose BEGIN was sent: its id (the GTID, or `file=…,pos=…`) and events so far, per table. */
export interface OpenTransaction {
  file: string;
  pos: number;
  id: string;
  total: number;
  perTable: Map<string, number>;
}

/** TransactionContext's offset keys, so a restart inside a transaction goes on counting. */
const TX_ID = 'transaction_id';
const TX_TABLE_COUNT = 'transaction_data_collection_order_';

export function transactionOffset(open: OpenTransaction): Record<string, unknown> {
  const o: Record<string, unknown> = { [TX_ID]: open.id };
  for (const [t, n] of open.perTable) o[TX_TABLE_COUNT + t] = n;
  return o;
}

export function transactionFromOffset(offset: Record<string, unknown>): OpenTransaction | null {
  if (typeof offset[TX_ID] !== 'string') return null;
  const perTable = new Map<string, number>();
  for (const [k, v] of Object.entries(offset)) if (k.startsWith(TX_TABLE_COUNT)) perTable.set(k.slice(TX_TABLE_COUNT.length), Number(v));
  let total = 0;
  for (const n of perTable.values()) total += n;
  return { file: String(offset.file), pos: Number(offset.pos), id: offset[TX_ID], total, perTable };
}

// TransactionMonitor and HeartbeatImpl at tag v1.9.8.Final
export const TRANSACTION_KEY_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.TransactionMetadataKey', fields: [{ type: 'string', optional: false, field: 'id' }] };
export const TRANSACTION_VALUE_SCHEMA: Schema = {
  type: 'struct',
  optional: false,
  name: 'io.debezium.connector.common.TransactionMetadataValue',
  fields: [
    { type: 'string', optional: false, field: 'status' },
    { type: 'string', optional: false, field: 'id' },
    { type: 'int64', optional: true, field: 'event_count' },
    {
      type: 'array',
      optional: true,
      field: 'data_collections',
      items: {
        type: 'struct',
        optional: false,
        fields: [
          { type: 'string', optional: false, field: 'data_collection' },
          { type: 'int64', optional: false, field: 'event_count' },
        ],
      },
    },
  ],
};
export const HEARTBEAT_KEY_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.ServerNameKey', fields: [{ type: 'string', optional: false, field: 'serverName' }] };
export const HEARTBEAT_VALUE_SCHEMA: Schema = { type: 'struct', optional: false, name: 'io.debezium.connector.common.Heartbeat', fields: [{ type: 'int64', optional: false, field: 'ts_ms' }] };
