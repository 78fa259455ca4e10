/**
 * Generated web access-log documents with the fields of the spec (@timestamp, message,
 * http.request.method, http.response.bytes, http.response.status_code, http.version, source.ip,
 * user.id), from a seeded PRNG so every run and every engine sees the same documents and
 * queries. Message words follow a Zipf law over a fixed vocabulary.
 */
import { seededRandom } from '../bench-util.js';
import type { BenchDoc, BenchQuery, Dataset, DatasetLayout, QueryKind } from './types.js';
import { buildVocabulary } from './vocabulary.js';
import { ZipfSampler } from './zipf.js';

export interface AccessLogOptions {
  docs: number;
  /** Distinct words in messages. */
  vocabularySize?: number;
  /** Zipf exponent of word frequencies (≈1 in natural text). */
  zipfExponent?: number;
  /** Queries per kind (the fixed query set). */
  queriesPerKind?: number;
  seed?: number;
}

export const ACCESS_LOG_DEFAULTS = { vocabularySize: 50_000, zipfExponent: 1.0, queriesPerKind: 200, seed: 20240101 };

export const ACCESS_LOG_LAYOUT: DatasetLayout = {
  name: 'access-logs',
  textField: 'message',
  tagField: 'http.request.method',
  createIndexBody: {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        '@timestamp': { type: 'date' },
        message: { type: 'text' },
        http: {
          properties: {
            request: { properties: { method: { type: 'keyword' } } },
            response: { properties: { bytes: { type: 'long' }, status_code: { type: 'integer' } } },
            version: { type: 'keyword' },
          },
        },
        source: { properties: { ip: { type: 'ip' } } },
        user: { properties: { id: { type: 'keyword' } } },
      },
    },
  },
};

/** Weighted choice from [value, weight] pairs; weights need not sum to 1. */
function weighted<T>(pairs: Array<[T, number]>): (u: number) => T {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const [, w] of pairs) cumulative.push((sum += w / total));
  return (u) => {
    for (let i = 0; i < cumulative.length; i++) if (u < cumulative[i]) return pairs[i][0];
    return pairs[pairs.length - 1][0];
  };
}

const METHOD = weighted<string>([['GET', 70], ['POST', 18], ['PUT', 5], ['DELETE', 4], ['PATCH', 2], ['HEAD', 1]]);
const STATUS = weighted<number>([
  [200, 75], [201, 3], [204, 2], [301, 2], [302, 3], [304, 4], [400, 2], [401, 2], [403, 1], [404, 4],
  [500, 1.5], [502, 0.3], [503, 0.2],
]);
const VERSION = weighted<string>([['1.1', 70], ['2.0', 25], ['1.0', 5]]);

/** Message lengths vary so BM25's length normalisation has something to do. */
const MIN_WORDS = 6;
const MAX_WORDS = 20;
const START_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 30 * 24 * 3600 * 1000;

export function generateAccessLogs(opts: AccessLogOptions): BenchDoc[] {
  const { vocabularySize, zipfExponent, seed } = { ...ACCESS_LOG_DEFAULTS, ...opts };
  const vocabulary = buildVocabulary(vocabularySize);
  const words = new ZipfSampler(vocabularySize, zipfExponent);
  const users = new ZipfSampler(10_000, 1.1);
  const random = seededRandom(seed);
  const docs: BenchDoc[] = new Array(opts.docs);
  const step = SPAN_MS / opts.docs;
  for (let i = 0; i < opts.docs; i++) {
    const length = MIN_WORDS + Math.floor(random() * (MAX_WORDS - MIN_WORDS + 1));
    const parts: string[] = new Array(length);
    for (let w = 0; w < length; w++) parts[w] = vocabulary[words.rank(random()) - 1];
    const message = parts.join(' ');
    const method = METHOD(random());
    const status = STATUS(random());
    // Log-normal-ish response sizes: mostly a few KB, some large downloads.
    const bytes = Math.round(Math.exp(6 + random() * 4 + random() * random() * 6));
    const ip = `10.${Math.floor(random() * 16)}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`;
    const id = String(i);
    docs[i] = {
      id,
      text: message,
      tag: method,
      source: {
        '@timestamp': new Date(START_MS + Math.floor(i * step + random() * step)).toISOString(),
        message,
        http: {
          request: { method },
          response: { bytes, status_code: status },
          version: VERSION(random()),
        },
        source: { ip },
        user: { id: `user-${users.rank(random())}` },
      },
    };
  }
  return docs;
}

/**
 * The fixed query set. Query words are drawn from the same Zipf law as the text, as people
 * type the words they see, so some queries hit most documents and some only a handful. Terms
 * within one query are distinct. The filtered kind is a 2-term match with a filter on the
 * HTTP method (POST, about 18 % of documents).
 */
export function accessLogQueries(opts: Omit<AccessLogOptions, 'docs'> = {}): Record<QueryKind, BenchQuery[]> {
  const { vocabularySize, zipfExponent, queriesPerKind, seed } = { ...ACCESS_LOG_DEFAULTS, ...opts };
  const vocabulary = buildVocabulary(vocabularySize);
  const words = new ZipfSampler(vocabularySize, zipfExponent);
  const random = seededRandom(seed ^ 0x5eed);
  const draw = (count: number): string[] => {
    const picked = new Set<string>();
    while (picked.size < count) picked.add(vocabulary[words.rank(random()) - 1]);
    return [...picked];
  };
  const kinds = (count: number) => Array.from({ length: queriesPerKind }, () => ({ terms: draw(count) }));
  return {
    terms1: kinds(1),
    terms2: kinds(2),
    terms3: kinds(3),
    filtered: Array.from({ length: queriesPerKind }, () => ({ terms: draw(2), tag: 'POST' })),
  };
}

export function accessLogDataset(opts: AccessLogOptions): Dataset {
  return { layout: ACCESS_LOG_LAYOUT, docs: generateAccessLogs(opts), queries: accessLogQueries(opts) };
}
