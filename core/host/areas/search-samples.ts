/**
 * The bundled sample data sets of the Relevance workbench (assets/samples): web access logs
 * (Loupe's own) and 3,811 mails of the SpamAssassin ham corpus (CC0, see mails.LICENSE.md),
 * with the mappings they are indexed with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { HostCallError } from '../area.js';
import type { SearchSampleDataset } from '../contract/search.js';

export const SAMPLE_FILES: Record<SearchSampleDataset, string> = { 'access-logs': 'access-logs.ndjson', mails: 'mails.ndjson.gz' };

export const SAMPLE_MAPPINGS: Record<SearchSampleDataset, Record<string, unknown>> = {
  'access-logs': {
    properties: {
      '@timestamp': { type: 'date' },
      message: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      http: {
        properties: {
          request: { properties: { method: { type: 'keyword' } } },
          response: { properties: { bytes: { type: 'long' }, status_code: { type: 'long' } } },
          version: { type: 'keyword' },
        },
      },
      source: { properties: { ip: { type: 'ip' } } },
      user: { properties: { id: { type: 'keyword' } } },
    },
  },
  mails: {
    properties: {
      subject: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      from: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      date: { type: 'date' },
      list: { type: 'keyword' },
      group: { type: 'keyword' },
      body: { type: 'text' },
    },
  },
};

/** The data set's documents, one JSON text a line (an `_id` key, when present, is the id). */
export function sampleLines(dataset: SearchSampleDataset): string[] {
  const file = SAMPLE_FILES[dataset];
  const candidates = [new URL(`../../../assets/samples/${file}`, import.meta.url).pathname, path.join(process.cwd(), 'assets', 'samples', file)];
  for (const c of candidates) {
    let raw: Buffer;
    try {
      raw = readFileSync(c);
    } catch {
      continue; // try the next location
    }
    const text = file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    return text.split('\n').filter((l) => l.trim() !== '');
  }
  throw new HostCallError(`sample data set ${dataset} not found (looked in ${candidates.join(', ')})`);
}

/** `{"index":{…}}\n<doc>\n` for each document, taking `_id` out of the document. */
export function bulkBody(docs: Record<string, unknown>[]): string {
  let out = '';
  for (const d of docs) {
    const { _id, ...source } = d;
    out += `${JSON.stringify({ index: _id === undefined ? {} : { _id: String(_id) } })}\n${JSON.stringify(source)}\n`;
  }
  return out;
}
