/**
 * The word list of the generated access-log messages. The most frequent ranks are words that
 * real service logs repeat; the long tail is made of pronounceable made-up words, generated
 * deterministically so every run (and every engine) sees the same vocabulary.
 */
import { seededRandom } from '../bench-util.js';

/** Ordered roughly by how often they show up in service logs. */
const COMMON_WORDS = [
  'request', 'user', 'session', 'error', 'response', 'server', 'client', 'timeout', 'login',
  'failed', 'connection', 'service', 'started', 'completed', 'cache', 'token', 'upstream',
  'retry', 'invalid', 'authenticated', 'database', 'query', 'handler', 'worker', 'payment',
  'order', 'account', 'password', 'redirect', 'upload', 'download', 'image', 'checkout',
  'search', 'product', 'cart', 'profile', 'admin', 'api', 'health', 'metrics', 'config',
  'denied', 'granted', 'expired', 'refresh', 'logout', 'update', 'delete', 'create', 'read',
  'write', 'slow', 'fast', 'queue', 'message', 'event', 'stream', 'batch', 'job', 'scheduled',
  'cron', 'backup', 'restore', 'replica', 'primary', 'shard', 'index', 'document', 'mobile',
  'browser', 'desktop', 'android', 'iphone', 'chrome', 'firefox', 'safari', 'gateway', 'proxy',
  'balancer', 'node', 'cluster', 'region', 'zone', 'latency', 'throughput', 'memory', 'disk',
  'network', 'socket', 'closed', 'opened', 'reset', 'refused', 'accepted', 'rejected',
  'unauthorized', 'forbidden', 'missing', 'found', 'moved', 'unavailable', 'overloaded',
  'throttled', 'limit', 'quota', 'exceeded', 'warning', 'notice', 'debug', 'trace', 'fatal',
  'panic', 'recovered', 'deprecated', 'legacy', 'version', 'release', 'deploy', 'rollback',
  'migration', 'schema', 'table', 'row', 'column', 'transaction', 'commit', 'abort', 'lock',
  'deadlock', 'contention', 'invoice', 'shipping', 'address', 'email', 'notification',
  'webhook', 'callback', 'signature', 'certificate', 'handshake', 'cipher', 'renegotiation',
  'cookie', 'header', 'body', 'payload', 'json', 'parse', 'serialize', 'encode', 'decode',
  'compress', 'thumbnail', 'report', 'export', 'import', 'sync', 'async', 'poll', 'push',
  'subscribe', 'unsubscribe', 'tenant', 'organization', 'team', 'member', 'role', 'permission',
];

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cl', 'dr', 'gr', 'pl', 'st', 'tr', 'sh', 'ch', 'th'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'x', 'nd', 'rk', 'st'];

/** `size` distinct lower-case words, the same for the same seed. Index 0 is rank 1. */
export function buildVocabulary(size: number, seed = 7): string[] {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const w of COMMON_WORDS) {
    if (words.length >= size) break;
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  const random = seededRandom(seed);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)];
  while (words.length < size) {
    // Frequent words are short, rare words long (as in natural language): 2 syllables at the
    // head of the tail, up to 4 further down.
    const syllables = 2 + Math.min(2, Math.floor(Math.log10(words.length + 1) - 2.5 + random()));
    let w = '';
    for (let s = 0; s < Math.max(2, syllables); s++) w += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}
