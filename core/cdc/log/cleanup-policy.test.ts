import { describe, expect, it } from 'vitest';
import { compacts, deletes, parseCleanupPolicy } from './cleanup-policy.js';

describe('cleanup.policy as Kafka 3.9 reads it', () => {
  it('a comma-separated value is the list as written, spaces around the commas dropped (ConfigDef LIST)', () => {
    expect(parseCleanupPolicy('compact,delete')).toEqual(['compact', 'delete']);
    expect(parseCleanupPolicy(' delete , compact ')).toEqual(['delete', 'compact']);
    expect(parseCleanupPolicy('compact')).toEqual(['compact']);
    expect(parseCleanupPolicy(['delete'])).toEqual(['delete']);
    // an empty value is an empty list: neither compacted nor deleted
    expect(parseCleanupPolicy('  ')).toEqual([]);
  });

  it('compact,delete in either order turns on both the cleaner and retention (LogConfig.compact, LogConfig.delete)', () => {
    for (const p of [parseCleanupPolicy('compact,delete'), parseCleanupPolicy('delete,compact')]) {
      expect(compacts(p)).toBe(true);
      expect(deletes(p)).toBe(true);
    }
    expect([compacts(['compact']), deletes(['compact'])]).toEqual([true, false]);
    expect([compacts(['delete']), deletes(['delete'])]).toEqual([false, true]);
    expect([compacts([]), deletes([])]).toEqual([false, false]);
  });

  it('a bad item is refused with the text of ValidList (ValidString per item, case-sensitive) and ConfigException', () => {
    const refused = (v: unknown, message: string) => expect(() => parseCleanupPolicy(v)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', message }));
    refused('compact,Delete', 'Invalid value Delete for configuration cleanup.policy: String must be one of: compact, delete');
    refused('compact,,delete', 'Invalid value  for configuration cleanup.policy: String must be one of: compact, delete');
    refused('compact;delete', 'Invalid value compact;delete for configuration cleanup.policy: String must be one of: compact, delete');
    refused(['compact', 'none'], 'Invalid value none for configuration cleanup.policy: String must be one of: compact, delete');
    refused(5, 'Invalid value 5 for configuration cleanup.policy: Expected a comma separated list.');
  });
});
