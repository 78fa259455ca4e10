import { describe, expect, it } from 'vitest';
import { accessLogQueries, generateAccessLogs } from './access-logs.js';
import { buildVocabulary } from './vocabulary.js';

describe('generated access logs', () => {
  it('are the same on every run (seeded)', () => {
    expect(generateAccessLogs({ docs: 500 })).toEqual(generateAccessLogs({ docs: 500 }));
    expect(generateAccessLogs({ docs: 50, seed: 2 })).not.toEqual(generateAccessLogs({ docs: 50 }));
  });

  it('carry the fields of the spec with the right types', () => {
    const docs = generateAccessLogs({ docs: 2000 });
    expect(docs.map((d) => d.id)).toEqual(docs.map((_, i) => String(i)));
    for (const d of docs) {
      const s = d.source as {
        '@timestamp': string;
        message: string;
        http: { request: { method: string }; response: { bytes: number; status_code: number }; version: string };
        source: { ip: string };
        user: { id: string };
      };
      expect(new Date(s['@timestamp']).toISOString()).toBe(s['@timestamp']);
      expect(s.message).toBe(d.text);
      expect(s.message).toMatch(/^[a-z]+( [a-z]+){5,19}$/);
      expect(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']).toContain(s.http.request.method);
      expect(d.tag).toBe(s.http.request.method);
      expect(Number.isInteger(s.http.response.bytes) && s.http.response.bytes > 0).toBe(true);
      expect(Number.isInteger(s.http.response.status_code) && s.http.response.status_code >= 200 && s.http.response.status_code < 600).toBe(true);
      expect(['1.0', '1.1', '2.0']).toContain(s.http.version);
      expect(s.source.ip).toMatch(/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/);
      expect(s.user.id).toMatch(/^user-\d+$/);
    }
    // Timestamps run forward through the month, like a log.
    const times = docs.map((d) => Date.parse((d.source as { '@timestamp': string })['@timestamp']));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
  });

  it('use message words with Zipf-like frequencies: a few very common, a long tail of rare ones', () => {
    const docs = generateAccessLogs({ docs: 20_000 });
    const counts = new Map<string, number>();
    for (const d of docs) for (const w of d.text.split(' ')) counts.set(w, (counts.get(w) ?? 0) + 1);
    const vocabulary = buildVocabulary(50_000);
    const f = (rank: number) => counts.get(vocabulary[rank - 1]) ?? 0;
    // s = 1: frequency(1) / frequency(r) ≈ r.
    expect(f(1) / f(2)).toBeGreaterThan(1.8);
    expect(f(1) / f(2)).toBeLessThan(2.2);
    expect(f(1) / f(10)).toBeGreaterThan(8.5);
    expect(f(1) / f(10)).toBeLessThan(11.5);
    const seenOnce = [...counts.values()].filter((c) => c === 1).length;
    expect(seenOnce / counts.size).toBeGreaterThan(0.3);
  });

  it('come with a fixed query set of 1, 2 and 3 distinct terms and a POST-filtered kind', () => {
    const q = accessLogQueries();
    expect(q).toEqual(accessLogQueries());
    const vocabulary = new Set(buildVocabulary(50_000));
    for (const [kind, count] of [['terms1', 1], ['terms2', 2], ['terms3', 3], ['filtered', 2]] as const) {
      expect(q[kind]).toHaveLength(200);
      for (const query of q[kind]) {
        expect(query.terms).toHaveLength(count);
        expect(new Set(query.terms).size).toBe(count);
        for (const t of query.terms) expect(vocabulary.has(t)).toBe(true);
        expect(query.tag).toBe(kind === 'filtered' ? 'POST' : undefined);
      }
    }
  });
});

describe('the message vocabulary', () => {
  it('is distinct lower-case words, the same for the same seed', () => {
    const v = buildVocabulary(50_000);
    expect(new Set(v).size).toBe(50_000);
    expect(v.every((w) => /^[a-z]+$/.test(w))).toBe(true);
    expect(buildVocabulary(50_000)).toEqual(v);
    expect(v[0]).toBe('request');
  });
});
