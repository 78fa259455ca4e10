/** The ClickHouse sink as a Connect plugin: com.clickhouse.kafka.connect.ClickHouseSinkConnector. */
import type { ConnectorConfig, SinkConnectorPlugin } from '../../plugin.js';
import { SINK_CONFIG_DEFS, validateSinkConfig } from './config.js';
import { sharedStateWarnings } from './shared-state.js';
import { ClickHouseSinkTask } from './task.js';

export const CLICKHOUSE_SINK_CLASS = 'com.clickhouse.kafka.connect.ClickHouseSinkConnector';

export const clickHouseSinkPlugin: SinkConnectorPlugin = {
  type: 'sink',
  class: CLICKHOUSE_SINK_CLASS,
  // The release of the real connector whose behaviour this follows.
  version: 'v1.3.4',
  aliases: ['ClickHouseSinkConnector'],
  configDefs: SINK_CONFIG_DEFS,
  async validate(config) {
    return validateSinkConfig(config);
  },
  taskConfigs(config: ConnectorConfig, maxTasks: number): ConnectorConfig[] {
    // Partitions are spread over tasks by the worker's consumer group; each task gets the same config.
    return Array.from({ length: Math.max(1, maxTasks) }, () => ({ ...config }));
  },
  createTask: () => new ClickHouseSinkTask(),
  warnings: sharedStateWarnings,
};
