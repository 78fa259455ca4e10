/** The connector plugins this worker offers (GET /connector-plugins). */
import type { ConnectorPlugin } from '../plugin.js';
import { clickHouseSinkPlugin } from './clickhouse-sink/plugin.js';
import { debeziumMySqlPlugin } from './debezium-mysql/plugin.js';

export const CONNECTOR_PLUGINS: readonly ConnectorPlugin[] = [clickHouseSinkPlugin, debeziumMySqlPlugin];
