import { describe, expect, it } from 'vitest';
import { useConnectService } from '../testing/connect-service.test-util.js';
import { groupFor, topicConfigOf, topicCreationGroups, validateTopicCreation } from './topic-creation.js';

const groups = {
  'topic.creation.groups': 'compacted,wide',
  'topic.creation.default.replication.factor': '-1',
  'topic.creation.default.partitions': '1',
  'topic.creation.compacted.include': 'dbserver1\\.transaction,__debezium-heartbeat\\..*',
  'topic.creation.compacted.cleanup.policy': 'compact,delete',
  'topic.creation.wide.include': 'dbserver1\\..*',
  'topic.creation.wide.exclude': 'dbserver1\\.demo\\.small',
  'topic.creation.wide.partitions': '3',
  'topic.creation.wide.retention.ms': '3600000',
};

describe('topic.creation groups (KIP-158)', () => {
  it('the first listed group that includes and does not exclude a topic wins, else the default group', () => {
    const g = topicCreationGroups(groups)!;
    expect(g.map((x) => x.name)).toEqual(['compacted', 'wide', 'default']);
    expect(groupFor(g, 'dbserver1.transaction').name).toBe('compacted');
    expect(groupFor(g, 'dbserver1.demo.customers').name).toBe('wide');
    expect(groupFor(g, 'dbserver1.demo.small').name).toBe('default');
    // patterns match whole names, as Matcher.matches() does
    expect(groupFor(g, 'xdbserver1.transaction').name).toBe('default');
    // the list as set: compacted and deleted by retention, as Kafka's broker reads it
    expect(topicConfigOf(groupFor(g, 'dbserver1.transaction'))).toEqual({ partitions: 1, cleanupPolicy: ['compact', 'delete'] });
    expect(topicConfigOf(groupFor(g, 'dbserver1.demo.customers'))).toEqual({ partitions: 3, retentionMs: 3600000 });
  });

  it('a group without partitions or replication factor takes the default group\'s; a group without include takes no topic', () => {
    const g = topicCreationGroups({ 'topic.creation.groups': 'a', 'topic.creation.default.replication.factor': '1', 'topic.creation.default.partitions': '4', 'topic.creation.a.cleanup.policy': 'compact,delete' })!;
    expect(g[0]).toMatchObject({ name: 'a', partitions: 4, replicationFactor: 1, other: { 'cleanup.policy': 'compact,delete' } });
    expect(groupFor(g, 'anything').name).toBe('default');
  });

  it('a group\'s cleanup.policy reaches the topic as the list written, and a bad one fails with the broker\'s text', () => {
    const policyOf = (v: string) => topicConfigOf(topicCreationGroups({ 'topic.creation.default.replication.factor': '1', 'topic.creation.default.partitions': '1', 'topic.creation.default.cleanup.policy': v })![0]!).cleanupPolicy;
    expect(policyOf('delete, compact')).toEqual(['delete', 'compact']);
    expect(policyOf('compact')).toEqual(['compact']);
    expect(() => policyOf('compact,none')).toThrow('Invalid value none for configuration cleanup.policy: String must be one of: compact, delete');
  });

  it('none without topic.creation keys, or with topic.creation.enable=false', () => {
    expect(topicCreationGroups({ 'connector.class': 'x' })).toBeNull();
    expect(topicCreationGroups({ 'topic.creation.enable': 'true' })).toBeNull();
    expect(topicCreationGroups({ ...groups, 'topic.creation.enable': 'false' })).toBeNull();
  });

  it('validation: the default group needs partitions and replication factor; values and regexes are checked per group', () => {
    expect(validateTopicCreation({ 'topic.creation.groups': 'a,a', 'topic.creation.a.include': '(' })).toEqual({
      'topic.creation.groups': ['Invalid value a, a for configuration topic.creation.groups: Duplicate alias provided.'],
      'topic.creation.default.partitions': ['Missing required configuration "topic.creation.default.partitions" which has no default value.'],
      'topic.creation.default.replication.factor': ['Missing required configuration "topic.creation.default.replication.factor" which has no default value.'],
      'topic.creation.a.include': [expect.stringMatching(/^Invalid value \[\(\] for configuration topic\.creation\.a\.include: Syntax error in regular expression: /)],
    });
    expect(validateTopicCreation({ 'topic.creation.default.partitions': '0', 'topic.creation.default.replication.factor': 'x' })).toEqual({
      'topic.creation.default.partitions': ["Invalid value 0 for configuration topic.creation.default.partitions: Number of partitions must be positive, or -1 to use the broker's default"],
      'topic.creation.default.replication.factor': ['Invalid value x for configuration topic.creation.default.replication.factor: Not a number of type SHORT'],
    });
    expect(validateTopicCreation({ 'topic.creation.default.partitions': '-1', 'topic.creation.default.replication.factor': '-1' })).toEqual({});
  });
});

describe('topic.creation through the worker', () => {
  const start = useConnectService('loupe-topic-creation-');

  it('creates the connector\'s topics with their group\'s partitions and policies', async () => {
    const { h } = await start();
    const config = {
      'connector.class': 'io.debezium.connector.mysql.MySqlConnector',
      'database.hostname': '127.0.0.1',
      'database.user': 'debezium',
      'database.server.name': 'dbserver1',
      'table.include.list': 'demo.customers',
      'provide.transaction.metadata': 'true',
      ...groups,
    };
    const res = await fetch(`${h.url}/connectors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'src', config }) });
    expect(res.status).toBe(201);
    await fetch(`${h.url}/loupe/sql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ database: 'demo', sql: "INSERT INTO customers (id, name) VALUES (100, 'Hedy')" }) });
    const deadline = Date.now() + 15_000;
    while (!(await h.api.topicLog.describeTopic('dbserver1.transaction'))) {
      if (Date.now() > deadline) throw new Error('the transaction topic was not created');
      await new Promise((r) => setTimeout(r, 50));
    }
    const customers = (await h.api.topicLog.describeTopic('dbserver1.demo.customers'))!;
    expect(customers.partitions).toHaveLength(3);
    expect(customers.config).toMatchObject({ partitions: 3, retentionMs: 3600000, cleanupPolicy: ['delete'] });
    expect((await h.api.topicLog.describeTopic('dbserver1.transaction'))!.config).toMatchObject({ partitions: 1, cleanupPolicy: ['compact', 'delete'] });
    // the schema change topic falls to the default group
    expect((await h.api.topicLog.describeTopic('dbserver1'))!.config).toMatchObject({ partitions: 1, cleanupPolicy: ['delete'] });
  });
});
