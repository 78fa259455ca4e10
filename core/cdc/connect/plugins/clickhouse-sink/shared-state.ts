/**
 * Two ClickHouse sink connectors with exactlyOnce on the same topic and the same state table keep
 * their progress under the same key (`<topic>-<partition>` in the table `zkDatabase` of the same
 * server and database): the second finds each range already AFTER_PROCESSING and writes nothing,
 * as the real connector does. That is kept, but said: the worker puts this warning in both
 * connectors' task status and in its log, naming the key and the settings that separate them.
 */
import type { PeerConnector } from '../../plugin.js';
import { javaSplit, parseSinkConfig, type SinkConfig } from './config.js';


/** Processing.doLogic's topic for a record topic: `<database><split char><table>` with enableDbTopicSplit. */
export function stateTopicOf(cfg: Pick<SinkConfig, 'enableDbTopicSplit' | 'dbTopicSplitChar' | 'database'>, topic: string): string {
  if (!cfg.enableDbTopicSplit) return topic;
  const parts = javaSplit(topic, cfg.dbTopicSplitChar);
  const [database, table] = parts.length === 2 ? [parts[0]!, parts[1]!] : [cfg.database, topic];
  return `${database}${cfg.dbTopicSplitChar}${table}`;
}

const where = (c: SinkConfig) => `${c.hostname.toLowerCase()}:${c.port}/${c.database}/${c.zkDatabase}`;

/**
 * The warnings for `self` about the other ClickHouse sinks that share its exactly-once state:
 * one per other connector, naming the shared keys (`partitions` gives a topic's partition count).
 */
export function sharedStateWarnings(self: PeerConnector, others: readonly PeerConnector[], partitions: (topic: string) => number): string[] {
  const mine = parseSinkConfig(self.config);
  if (!mine.exactlyOnce) return [];
  const myTopics = new Set([...mine.topics, ...self.topics]);
  const out: string[] = [];
  for (const other of others) {
    if (other.name === self.name) continue;
    const theirs = parseSinkConfig(other.config);
    if (!theirs.exactlyOnce || where(theirs) !== where(mine)) continue;
    const keys: string[] = [];
    for (const topic of new Set([...theirs.topics, ...other.topics])) {
      if (!myTopics.has(topic)) continue;
      const stateTopic = stateTopicOf(mine, topic);
      if (stateTopicOf(theirs, topic) !== stateTopic) continue;
      for (let p = 0; p < Math.max(1, partitions(topic)); p++) keys.push(`${stateTopic}-${p}`);
    }
    if (!keys.length) continue;
    out.push(
      `Warning: connector '${other.name}' keeps its exactly-once state under the same key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')} ` +
        `(state table '${mine.zkDatabase}' in database '${mine.database}' on ${mine.hostname}:${mine.port}): the sink that comes second to a range finds it already processed, ` +
        `skips it and writes nothing to its table. Give one of them a state table of its own with zkDatabase (and, on a ClickHouse server, a KeeperMap path of its own with zkPath), ` +
        `e.g. "zkDatabase": "connect_state_${self.name.replace(/[^\w]/g, '_')}".`,
    );
  }
  return out;
}
