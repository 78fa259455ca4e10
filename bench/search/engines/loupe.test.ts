/**
 * The Loupe adapter sends the benchmark's queries to the real engine as Elasticsearch bodies.
 */
import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_LAYOUT, generateAccessLogs } from '../access-logs.js';
import { createLoupe, loadLoupeEngine, loupeQueryBody } from './loupe.js';

describe('Loupe benchmark queries', () => {
  it('are a match query for plain terms (OR, the Elasticsearch default)', () => {
    expect(loupeQueryBody(ACCESS_LOG_LAYOUT, { terms: ['login', 'failed'] })).toEqual({
      size: 10,
      _source: false,
      query: { match: { message: 'login failed' } },
    });
  });

  it('are bool must + filter for a filtered query, the filter a term on the keyword field', () => {
    expect(loupeQueryBody(ACCESS_LOG_LAYOUT, { terms: ['login'], tag: 'POST' })).toEqual({
      size: 10,
      _source: false,
      query: { bool: { must: [{ match: { message: 'login' } }], filter: [{ term: { 'http.request.method': 'POST' } }] } },
    });
  });
});

describe('the Loupe adapter on the real engine', () => {
  it('indexes access logs with their mapping and answers the benchmark queries', async () => {
    const docs = generateAccessLogs({ docs: 3000 });
    const engine = createLoupe(ACCESS_LOG_LAYOUT, loadLoupeEngine());
    const progress: number[] = [];
    await engine.build(docs, (n) => progress.push(n));
    expect(progress.at(-1)).toBe(3000);

    // A word that occurs in a handful of messages: the engine must return exactly those.
    const counts = new Map<string, string[]>();
    for (const d of docs) for (const w of new Set(d.text.split(' '))) counts.set(w, [...(counts.get(w) ?? []), d.id]);
    const [rare, holders] = [...counts.entries()].find(([, ids]) => ids.length === 3)!;
    expect((await engine.search({ terms: [rare] })).sort()).toEqual([...holders].sort());

    const top = await engine.search({ terms: ['request', 'user'] });
    expect(top).toHaveLength(10);

    const byId = new Map(docs.map((d) => [d.id, d]));
    const filtered = await engine.search({ terms: ['request', 'user'], tag: 'POST' });
    expect(filtered).toHaveLength(10);
    for (const id of filtered) expect(byId.get(id)!.tag).toBe('POST');

    expect(await engine.ownMemoryBytes!()).toBeGreaterThan(0);
  });
});
