/**
 * Elasticsearch REST endpoints mapped onto SearchEngine calls. Handlers only translate HTTP
 * (path, query string, body) into engine calls and engine results into status + JSON.
 */
import { Router } from '../../common/http.js';
import type { SearchEngine, RefreshPolicy } from '../engine.js';
import { EsError, illegalArgument } from '../errors.js';
import { parseJsonBody } from '../query/json-position.js';

type Json = Record<string, unknown>;

export interface RestRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  engine: SearchEngine;
}

export interface RestResult {
  status: number;
  body?: unknown;
  /** Plain text bodies (the _cat APIs without format=json). */
  text?: string;
  /** The body is a stored document: printed as is, no float formatting. */
  document?: boolean;
}

export const VERSION = {
  number: '8.15.0',
  build_flavor: 'default',
  build_type: 'tar',
  build_hash: '1a77947f34deddb41af25e6f0ddb8e830159c179',
  build_date: '2024-08-05T10:05:34.233336849Z',
  build_snapshot: false,
  lucene_version: '9.11.1',
  minimum_wire_compatibility_version: '7.17.0',
  minimum_index_compatibility_version: '7.0.0',
};

const ok = (body: unknown, status = 200): RestResult => ({ status, body });

function json(req: RestRequest, required = false): Json {
  if (req.body.trim() === '') {
    if (required) throw new EsError('parse_exception', 'request body is required', 400);
    return {};
  }
  const v = parseJsonBody(req.body);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new EsError('parsing_exception', `Unknown key for a ${Array.isArray(v) ? 'START_ARRAY' : 'VALUE_STRING'} in [_na_].`, 400, { line: 1, col: 1 });
  return v as Json;
}

function refreshOf(q: URLSearchParams): RefreshPolicy | undefined {
  if (!q.has('refresh')) return undefined;
  const v = q.get('refresh')!;
  if (v === '' || v === 'true') return 'true';
  if (v === 'false') return 'false';
  if (v === 'wait_for') return 'wait_for';
  throw illegalArgument(`Unknown value for refresh: [${v}].`);
}

export function buildRouter(): Router<RestRequest> {
  const r = new Router<RestRequest>();

  r.add(['GET', 'HEAD'], '/', (req) =>
    ok({ name: 'loupe', cluster_name: 'loupe', cluster_uuid: req.engine.nodeId, version: VERSION, tagline: 'You Know, for Search' }),
  );
  r.add('GET', '/_cluster/health', (req) => ok(req.engine.clusterHealth()));
  r.add('GET', '/_cluster/health/:index', (req, p) => {
    req.engine.resolve(p.index!, { allowNoIndices: false });
    return ok(req.engine.clusterHealth());
  });
  const catIndices = (req: RestRequest, p: Record<string, string>): RestResult => {
    let rows = req.engine.catIndices();
    if (p.index) {
      const names = new Set(req.engine.resolve(p.index, { allowNoIndices: false }));
      rows = rows.filter((x) => names.has(x.index as string));
    }
    if (req.query.get('format') === 'json') return ok(rows);
    const cols = ['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size'];
    const table = [...(req.query.has('v') ? [cols] : []), ...rows.map((row) => cols.map((c) => String(row[c])))];
    const widths = cols.map((_, i) => Math.max(0, ...table.map((t) => t[i]!.length)));
    return { status: 200, text: table.map((t) => t.map((c, i) => c.padEnd(widths[i]!)).join(' ').trimEnd() + '\n').join('') };
  };
  r.add('GET', '/_cat/indices', catIndices);
  r.add('GET', '/_cat/indices/:index', catIndices);

  // indexes
  r.add('PUT', '/:index', (req, p) => ok(req.engine.createIndex(p.index!, json(req))));
  r.add('HEAD', '/:index', (req, p) => ({ status: req.engine.exists(p.index!) ? 200 : 404 }));
  r.add('GET', '/:index', (req, p) => ok(req.engine.getIndex(p.index!)));
  r.add('DELETE', '/:index', (req, p) => ok(req.engine.deleteIndex(p.index!)));
  r.add('GET', '/_mapping', (req) => ok(req.engine.getMapping('_all')));
  r.add('GET', '/:index/_mapping', (req, p) => ok(req.engine.getMapping(p.index!)));
  r.add(['PUT', 'POST'], '/:index/_mapping', (req, p) => ok(req.engine.putMapping(p.index!, json(req, true))));
  r.add('GET', '/:index/_settings', (req, p) => {
    const all = req.engine.getIndex(p.index!);
    return ok(Object.fromEntries(Object.entries(all).map(([k, v]) => [k, { settings: (v as Json).settings }])));
  });
  r.add(['POST', 'GET'], '/_refresh', (req) => ok(req.engine.refresh('_all')));
  r.add(['POST', 'GET'], '/:index/_refresh', (req, p) => ok(req.engine.refresh(p.index!)));
  r.add('POST', '/:index/_forcemerge', (req, p) => ok(req.engine.forceMerge(p.index!)));
  r.add('GET', '/_stats', (req) => ok(req.engine.indexStats('_all')));
  r.add('GET', '/:index/_stats', (req, p) => ok(req.engine.indexStats(p.index!)));

  // documents
  const indexDoc = (opType: 'index' | 'create') => (req: RestRequest, p: Record<string, string>) => {
    const body = json(req, true);
    const op = req.query.get('op_type') === 'create' ? 'create' : opType;
    const res = req.engine.indexDoc(p.index!, p.id, body, { opType: op, json: req.body.trim(), refresh: refreshOf(req.query) });
    return ok(res, res.result === 'created' ? 201 : 200);
  };
  r.add(['PUT', 'POST'], '/:index/_doc/:id', indexDoc('index'));
  r.add('POST', '/:index/_doc', indexDoc('index'));
  r.add(['PUT', 'POST'], '/:index/_create/:id', indexDoc('create'));
  r.add('GET', '/:index/_doc/:id', (req, p) => {
    const d = req.engine.getDoc(p.index!, p.id!, req.query);
    return ok(d.body, d.found ? 200 : 404);
  });
  r.add('HEAD', '/:index/_doc/:id', (req, p) => ({ status: req.engine.getDoc(p.index!, p.id!).found ? 200 : 404 }));
  r.add('GET', '/:index/_source/:id', (req, p) => {
    const d = req.engine.getDoc(p.index!, p.id!);
    if (!d.found) throw new EsError('resource_not_found_exception', `Document not found [${p.index}]/[${p.id}]`, 404);
    return { status: 200, body: d.body._source, document: true };
  });
  r.add('DELETE', '/:index/_doc/:id', (req, p) => {
    const d = req.engine.deleteDoc(p.index!, p.id!, { refresh: refreshOf(req.query) });
    return ok(d.body, d.found ? 200 : 404);
  });
  r.add('POST', '/:index/_update/:id', (req, p) => {
    const res = req.engine.updateDoc(p.index!, p.id!, json(req, true), { refresh: refreshOf(req.query) });
    return ok(res, res.result === 'created' ? 201 : 200);
  });
  const bulk = (req: RestRequest, p: Record<string, string>) => {
    if (req.body.trim() === '') throw new EsError('action_request_validation_exception', 'Validation Failed: 1: no requests added;', 400);
    return ok(req.engine.bulk(p.index, req.body, refreshOf(req.query)));
  };
  r.add(['POST', 'PUT'], '/_bulk', bulk);
  r.add(['POST', 'PUT'], '/:index/_bulk', bulk);

  // search
  const search = (req: RestRequest, p: Record<string, string>) => ok(req.engine.search(p.index ?? '_all', json(req), req.query, req.body));
  r.add(['GET', 'POST'], '/_search', search);
  r.add(['GET', 'POST'], '/:index/_search', search);
  const count = (req: RestRequest, p: Record<string, string>) => ok(req.engine.count(p.index ?? '_all', json(req), req.query, req.body));
  r.add(['GET', 'POST'], '/_count', count);
  r.add(['GET', 'POST'], '/:index/_count', count);
  const explain = (req: RestRequest, p: Record<string, string>) => {
    const res = req.engine.explain(p.index!, p.id!, json(req), req.body);
    return ok(res.body, res.status);
  };
  r.add(['GET', 'POST'], '/:index/_explain/:id', explain);
  r.add(['GET', 'POST'], '/:index/:type/:id/_explain', explain);
  const analyze = (req: RestRequest, p: Record<string, string>) => ok(req.engine.analyze(p.index, json(req, true)));
  r.add(['GET', 'POST'], '/_analyze', analyze);
  r.add(['GET', 'POST'], '/:index/_analyze', analyze);
  return r;
}
