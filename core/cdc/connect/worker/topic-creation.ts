/**
 * Topic creation for source connectors (KIP-158, Kafka 3.9 at tag 3.9.0-rc3): SourceConnectorConfig,
 * TopicCreationConfig, TopicCreationGroup and TopicCreation. A connector whose config has any
 * `topic.creation.` key creates the topics it writes to: each new topic takes the settings of the
 * first group in `topic.creation.groups` whose `include` matches it and whose `exclude` does not,
 * else those of the `default` group, which must give `replication.factor` and `partitions`.
 * Any other key of a group (`cleanup.policy`, `retention.ms`, …) is a topic config.
 */
import { parseCleanupPolicy } from '../../log/cleanup-policy.js';
import type { TopicConfig } from '../../log/types.js';

export const TOPIC_CREATION_PREFIX = 'topic.creation.';
const DEFAULT_GROUP = 'default';
const GROUP_KEYS = new Set(['include', 'exclude', 'replication.factor', 'partitions']);


export interface TopicCreationGroup {
  name: string;
  include: RegExp;
  exclude: RegExp;
  /** -1: the broker's default. */
  partitions: number;
  /** -1: the broker's default. */
  replicationFactor: number;
  /** The group's other keys, as topic configs. */
  other: Record<string, string>;
}

/** Kafka's LIST type: comma-separated, each item trimmed, an empty value an empty list. */
function list(v: string | undefined): string[] {
  if (v === undefined || v.trim() === '') return [];
  return v.split(',').map((s) => s.trim());
}

function groupNames(config: Record<string, string>): string[] {
  return [...new Set(list(config[`${TOPIC_CREATION_PREFIX}groups`]))].filter((g) => g !== DEFAULT_GROUP);
}

/**
 * Whether the connector creates its topics: SourceConnectorConfig.usesTopicCreation. Loupe has no
 * worker config file, so `topic.creation.enable` (a worker setting in Kafka) is read from the
 * connector's config, where `false` turns creation off and the key alone does not turn it on.
 */
export function usesTopicCreation(config: Record<string, string>): boolean {
  if ((config[`${TOPIC_CREATION_PREFIX}enable`] ?? 'true').trim().toLowerCase() === 'false') return false;
  return Object.keys(config).some((k) => k.startsWith(TOPIC_CREATION_PREFIX) && k !== `${TOPIC_CREATION_PREFIX}enable`);
}

/** Java's Pattern.compile(String.join("|", list)), matched against the whole topic name. */
function alternation(patterns: string[]): RegExp {
  return new RegExp(`^(?:${patterns.join('|')})$`);
}

/**
 * The groups in the order topics are matched against them, the default group last (its include
 * and exclude are ignored: it takes every topic no other group takes). Null when the connector
 * does not use topic creation.
 */
export function topicCreationGroups(config: Record<string, string>): TopicCreationGroup[] | null {
  if (!usesTopicCreation(config)) return null;
  const num = (k: string, fallback: number) => (config[k] === undefined || config[k]!.trim() === '' ? fallback : Number(config[k]));
  const defaults = { partitions: num(`${TOPIC_CREATION_PREFIX}${DEFAULT_GROUP}.partitions`, -1), replicationFactor: num(`${TOPIC_CREATION_PREFIX}${DEFAULT_GROUP}.replication.factor`, -1) };
  const group = (name: string, include: string[], exclude: string[]): TopicCreationGroup => {
    const prefix = `${TOPIC_CREATION_PREFIX}${name}.`;
    const other: Record<string, string> = {};
    for (const [k, v] of Object.entries(config)) if (k.startsWith(prefix) && !GROUP_KEYS.has(k.slice(prefix.length))) other[k.slice(prefix.length)] = v;
    return {
      name,
      include: alternation(include),
      exclude: alternation(exclude),
      partitions: num(`${prefix}partitions`, defaults.partitions),
      replicationFactor: num(`${prefix}replication.factor`, defaults.replicationFactor),
      other,
    };
  };
  const groups = groupNames(config).map((g) => group(g, list(config[`${TOPIC_CREATION_PREFIX}${g}.include`]), list(config[`${TOPIC_CREATION_PREFIX}${g}.exclude`])));
  groups.push(group(DEFAULT_GROUP, ['.*'], []));
  return groups;
}

/** TopicCreation.findFirstGroup: the first group (default last) that takes the topic. */
export function groupFor(groups: readonly TopicCreationGroup[], topic: string): TopicCreationGroup {
  return groups.find((g) => g.name !== DEFAULT_GROUP && !g.exclude.test(topic) && g.include.test(topic)) ?? groups[groups.length - 1]!;
}

/**
 * The embedded log's settings for a topic the group creates; -1 takes the log's defaults. An
 * invalid cleanup.policy throws the LogError the log's createTopic would.
 */
export function topicConfigOf(group: TopicCreationGroup): Partial<TopicConfig> {
  const out: Partial<TopicConfig> = {};
  if (group.partitions > 0) out.partitions = group.partitions;
  if (group.replicationFactor > 0) out.replicationFactor = group.replicationFactor;
  // the list as set (compact,delete is both policies); a bad item fails as the broker's CreateTopics would
  if (group.other['cleanup.policy'] !== undefined) out.cleanupPolicy = parseCleanupPolicy(group.other['cleanup.policy']);
  if (group.other['retention.ms'] !== undefined) out.retentionMs = Number(group.other['retention.ms']);
  if (group.other['retention.bytes'] !== undefined) out.retentionBytes = Number(group.other['retention.bytes']);
  return out;
}

const INT = /^\s*-?\d+\s*$/;

/** ConfigDef validation of the enriched source config's topic creation keys. */
export function validateTopicCreation(config: Record<string, string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!usesTopicCreation(config)) return errors;
  const names = list(config[`${TOPIC_CREATION_PREFIX}groups`]);
  if (names.length > new Set(names).size) add(`${TOPIC_CREATION_PREFIX}groups`, `Invalid value ${names.join(', ')} for configuration ${TOPIC_CREATION_PREFIX}groups: Duplicate alias provided.`);
  for (const g of [DEFAULT_GROUP, ...groupNames(config)]) {
    const prefix = `${TOPIC_CREATION_PREFIX}${g}.`;
    for (const [key, type, what] of [
      ['partitions', 'INT', 'Number of partitions must be positive, or -1 to use the broker\'s default'],
      ['replication.factor', 'SHORT', "Replication factor must be positive and not larger than the number of brokers in the Kafka cluster, or -1 to use the broker's default"],
    ] as const) {
      const k = prefix + key;
      const v = config[k];
      if (v === undefined) {
        if (g === DEFAULT_GROUP) add(k, `Missing required configuration "${k}" which has no default value.`);
        continue;
      }
      if (!INT.test(v)) add(k, `Invalid value ${v} for configuration ${k}: Not a number of type ${type}`);
      else if (Number(v) !== -1 && Number(v) < 1) add(k, `Invalid value ${Number(v)} for configuration ${k}: ${what}`);
    }
    if (g === DEFAULT_GROUP) continue; // the default group's include/exclude are dropped before validation
    for (const key of ['include', 'exclude']) {
      const k = prefix + key;
      for (const p of list(config[k])) {
        try {
          new RegExp(p);
        } catch (err) {
          add(k, `Invalid value [${list(config[k]).join(', ')}] for configuration ${k}: Syntax error in regular expression: ${(err as Error).message}`);
          break;
        }
      }
    }
  }
  return errors;
}
