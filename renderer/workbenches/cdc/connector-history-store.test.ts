import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_VERSIONS, useConnectorHistory } from './connector-history-store.js';

const W = 'http://127.0.0.1:8083';

beforeEach(() => {
  useConnectorHistory.setState({ byWorker: {} });
});

describe('connector config history', () => {
  it('keeps a version only when the config differs from the newest kept one', () => {
    const h = useConnectorHistory.getState();
    expect(h.record(W, 'sink', { a: '1' }, 'seen', 1)).toBe(true);
    expect(h.record(W, 'sink', { a: '1' }, 'seen', 2)).toBe(false);
    expect(h.record(W, 'sink', { a: '2' }, 'edited', 3)).toBe(true);
    // a refresh right after the edit sees the same config: nothing new
    expect(h.record(W, 'sink', { a: '2' }, 'seen', 4)).toBe(false);
    expect(useConnectorHistory.getState().versions(W, 'sink')).toEqual([
      { config: { a: '1' }, at: 1, origin: 'seen' },
      { config: { a: '2' }, at: 3, origin: 'edited' },
    ]);
  });

  it('keeps connectors and Kafka Connect workers apart', () => {
    const h = useConnectorHistory.getState();
    h.record(W, 'sink', { a: '1' }, 'seen');
    h.record(W, 'source', { a: '1' }, 'seen');
    h.record('http://other:8083', 'sink', { a: '9' }, 'seen');
    expect(useConnectorHistory.getState().versions(W, 'sink')).toHaveLength(1);
    expect(useConnectorHistory.getState().versions('http://other:8083', 'sink')[0]!.config).toEqual({ a: '9' });
    expect(useConnectorHistory.getState().versions(W, 'nope')).toEqual([]);
  });

  it(`keeps the newest ${MAX_VERSIONS} versions`, () => {
    const h = useConnectorHistory.getState();
    for (let i = 0; i < MAX_VERSIONS + 5; i++) h.record(W, 'sink', { n: String(i) }, 'seen', i);
    const v = useConnectorHistory.getState().versions(W, 'sink');
    expect(v).toHaveLength(MAX_VERSIONS);
    expect(v[0]!.config.n).toBe('5');
    expect(v[v.length - 1]!.config.n).toBe(String(MAX_VERSIONS + 4));
  });
});

describe('credentials in the history', () => {
  it('keeps a password only as a fingerprint, and still sees it change', () => {
    const h = useConnectorHistory.getState();
    h.record(W, 'source', { 'database.password': 'dbz', 'database.user': 'debezium' }, 'seen', 1);
    expect(h.record(W, 'source', { 'database.password': 'dbz', 'database.user': 'debezium' }, 'seen', 2)).toBe(false);
    expect(h.record(W, 'source', { 'database.password': 'other', 'database.user': 'debezium' }, 'edited', 3)).toBe(true);
    const kept = JSON.stringify(useConnectorHistory.getState().byWorker);
    expect(kept).not.toContain('dbz');
    expect(kept).not.toContain('other');
    expect(kept).toContain('debezium');
  });
});
