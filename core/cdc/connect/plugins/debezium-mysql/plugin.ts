/** io.debezium.connector.mysql.MySqlConnector over Loupe's embedded source (one task, as Debezium's MySQL connector). */
import type { ConnectorConfig, SourceConnectorPlugin } from '../../plugin.js';
import { CONFIG_DEFS, validateConfig } from './config.js';
import { DEBEZIUM_VERSION } from './envelope.js';
import { MySqlSourceTask } from './task.js';

export const MYSQL_CONNECTOR_CLASS = 'io.debezium.connector.mysql.MySqlConnector';

export const debeziumMySqlPlugin: SourceConnectorPlugin = {
  class: MYSQL_CONNECTOR_CLASS,
  type: 'source',
  version: DEBEZIUM_VERSION,
  aliases: ['MySqlConnector', 'MySql'],
  configDefs: CONFIG_DEFS,
  async validate(config) {
    return validateConfig(config);
  },
  taskConfigs(config: ConnectorConfig): ConnectorConfig[] {
    // The binlog is one ordered stream: Debezium's MySQL connector always runs a single task.
    return [{ ...config, 'task.class': 'io.debezium.connector.mysql.MySqlConnectorTask' }];
  },
  createTask: () => new MySqlSourceTask(),
};
