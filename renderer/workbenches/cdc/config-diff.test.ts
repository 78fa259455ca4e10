import { describe, expect, it } from 'vitest';
import { diffConfigs, diffSummary, maskSecrets, sameConfig } from './config-diff.js';

describe('diffConfigs: a connector config against its last version, key by key', () => {
  it('lists added, removed and changed keys in key order, with old and new values, and counts the rest', () => {
    const before = { 'connector.class': 'io.debezium.connector.mysql.MySqlConnector', 'tasks.max': '1', 'snapshot.mode': 'initial', 'topic.prefix': 'demo' };
    const after = { 'connector.class': 'io.debezium.connector.mysql.MySqlConnector', 'tasks.max': '2', 'topic.prefix': 'demo', 'table.include.list': 'demo.customers' };
    const d = diffConfigs(before, after);
    expect(d.changes).toEqual([
      { key: 'snapshot.mode', kind: 'removed', before: 'initial' },
      { key: 'table.include.list', kind: 'added', after: 'demo.customers' },
      { key: 'tasks.max', kind: 'changed', before: '1', after: '2' },
    ]);
    expect(d.unchanged).toBe(2);
    expect(diffSummary(d)).toBe('1 changed, 1 added, 1 removed');
  });

  it('sees an empty value as a value (set to "" is a change, not a removal)', () => {
    expect(diffConfigs({ a: 'x' }, { a: '' }).changes).toEqual([{ key: 'a', kind: 'changed', before: 'x', after: '' }]);
  });

  it('finds no changes between equal configs whatever their key order', () => {
    expect(sameConfig({ a: '1', b: '2' }, { b: '2', a: '1' })).toBe(true);
    expect(diffSummary(diffConfigs({ a: '1' }, { a: '1' }))).toBe('no changes');
  });
});

describe('maskSecrets: credentials never kept or shown in the history', () => {
  it('replaces credential values by a fingerprint, so a change still shows', () => {
    const a = maskSecrets({ 'database.password': 'dbz', 'database.user': 'debezium', 'key.converter': 'org.apache.kafka.connect.json.JsonConverter', password: '' });
    expect(a['database.password']).toMatch(/^\(hidden, #[0-9a-f]{8}\)$/);
    expect(JSON.stringify(a)).not.toContain('dbz');
    expect(a['database.user']).toBe('debezium');
    expect(a['key.converter']).toBe('org.apache.kafka.connect.json.JsonConverter');
    expect(a.password).toBe('');
    const b = maskSecrets({ 'database.password': 'dbz2' });
    expect(diffConfigs(a, { ...a, ...b }).changes).toEqual([{ key: 'database.password', kind: 'changed', before: a['database.password'], after: b['database.password'] }]);
    expect(maskSecrets({ 'ssl.key.password': 'x', 'sasl.jaas.config': 'y', 'aws.secret': 'z' })).not.toMatchObject({ 'ssl.key.password': 'x' });
  });
});
