/**
 * Kafka Connect's REST resources (RootResource, ConnectorsResource, InternalConnectResource,
 * ConnectorPluginsResource, LoggingResource) mapped onto the worker, plus Loupe's own
 * `POST /loupe/sql` for the embedded source. Routes only translate: statuses and bodies follow
 * Kafka Connect 3.9 with a standalone herder.
 */
import type http from 'node:http';
import { Router } from '../../../common/http.js';
import type { QuerySource } from '../../source/types.js';
import { MySqlError } from '../../source/mysql-error.js';
import { sqlAnswer } from '../../source/http/sql-answer.js';
import { ConnectError, connectErrors } from '../errors.js';
import type { ConnectorConfig } from '../plugin.js';
import { javaTrim, type Worker } from '../worker/worker.js';
import { bindConnectorOffsets, bindCreateConnectorRequest, bindStringMap, bindTaskConfigs, parseBody } from './jackson-bind.js';
import { Loggers } from './loggers.js';
import { findPredicate, PREDICATE_PLUGINS } from '../transforms/index.js';

/**
 * ConnectorPluginsResource lists predicates after the transformations (each kind ordered by
 * class name); the worker's list stops at transformations, so they go in here.
 */
function withPredicates(list: { class: string; type: string; version?: string }[]): { class: string; type: string; version?: string }[] {
  if (!list.some((p) => p.type === 'transformation')) return list;
  const at = list.map((p) => p.type).lastIndexOf('transformation') + 1;
  const predicates = PREDICATE_PLUGINS.map((p) => ({ class: p.class, type: 'predicate', version: p.version })).sort((a, b) => (a.class < b.class ? -1 : a.class > b.class ? 1 : 0));
  return [...list.slice(0, at), ...predicates, ...list.slice(at)];
}

export interface RestRequest {
  req: http.IncomingMessage;
  url: URL;
  /** Raw body text ('' when none). */
  body: string;
}

export interface RestResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteDeps {
  worker: Worker;
  source?: QuerySource;
  loggers?: Loggers;
}

type Handler = (ctx: RestRequest, params: Record<string, string>) => Promise<RestResponse> | RestResponse;

const ok = (body: unknown, status = 200): RestResponse => ({ status, body });
const empty = (status: number): RestResponse => ({ status });

/** `{task}` is an Integer: Jersey answers a segment Integer.valueOf rejects with a plain 404. */
function taskId(raw: string): number {
  const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) throw new ConnectError(404, 'HTTP 404 Not Found');
  return n;
}

/** Boolean query parameters go through Boolean.valueOf: only "true" (any case) is true. */
function bool(v: string | null, dflt = false): boolean {
  return v === null ? dflt : v.toLowerCase() === 'true';
}

function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h ^ (h >>> 16);
}

/**
 * Iteration order of a java.util.HashMap filled with `keys` in order: by bucket at the final
 * table size, insertion order within a bucket (resizes split buckets without reordering).
 * Connector names reach the client in this order: the herder's names are a HashMap's keys.
 */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  let cap = 16;
  while (keys.length > cap * 0.75) cap *= 2;
  return keys
    .map((k, i) => ({ k, i, b: javaHash(k) & (cap - 1) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.k);
}

/** ConnectorsResource.checkAndPutConnectorConfigName; a null map fails as the Java code does. */
function checkAndPutName(name: string, config: Record<string, string | null> | null): Record<string, string> {
  if (config === null) throw connectErrors.internal('Cannot invoke "java.util.Map.get(Object)" because "connectorConfig" is null');
  const included = config.name;
  if (included !== undefined && included !== null) {
    if (included !== name) throw connectErrors.badRequest(`Connector name configuration (${included}) doesn't match connector name in the URL (${name})`);
  } else config.name = name;
  return config as Record<string, string>;
}

/** Map<String,String> bodies, where Java code dereferences the map and a missing body is an NPE. */
function requireMap(map: Record<string, string | null> | null, variable: string): Record<string, string | null> {
  if (map === null) throw connectErrors.internal(`Cannot invoke "java.util.Map.get(Object)" because "${variable}" is null`);
  return map;
}

export function buildRoutes(deps: RouteDeps, parseJson: (ctx: RestRequest) => unknown): Router<RestRequest> {
  const w = deps.worker;
  const loggers = deps.loggers ?? new Loggers();
  const r = new Router<RestRequest>();
  const add = (method: string, pattern: string, h: Handler) => r.add(method, pattern, h as never);

  add('GET', '/', () => ok(w.serverInfo()));
  // RootResource.healthCheck (KIP-1017): the routes exist only once the worker has started.
  add('GET', '/health', () => ok({ status: 'healthy', message: 'Worker has completed startup and is ready to handle requests.' }));

  // ------------------------------------------------------------------------- /connectors
  add('GET', '/connectors', (ctx) => {
    const expand = ctx.url.searchParams.getAll('expand');
    const names = javaHashMapOrder(w.connectors());
    if (!ctx.url.searchParams.has('expand')) return ok(names);
    const out: Record<string, Record<string, unknown>> = {};
    for (const name of names) {
      const e: Record<string, unknown> = {};
      for (const x of expand) {
        if (x === 'status') e.status = w.status(name);
        else if (x === 'info') e.info = w.connectorInfo(name);
      }
      out[name] = e;
    }
    return ok(out);
  });

  add('POST', '/connectors', async (ctx) => {
    const body = bindCreateConnectorRequest(parseBody(ctx.body));
    if (body === null) throw connectErrors.internal('Cannot invoke "org.apache.kafka.connect.runtime.rest.entities.CreateConnectorRequest.name()" because "createRequest" is null');
    // An empty name is left to the config validation, which reports it with the other errors.
    const name = body.name === null ? '' : javaTrim(body.name);
    const config = checkAndPutName(name, body.config);
    const initialState = body.initialState ?? undefined;
    const { info } = await w.putConnectorConfig(name, config as ConnectorConfig, { allowReplace: false, initialState });
    return { status: 201, body: info, headers: { location: `${ctx.url.origin}/connectors/${encodeURIComponent(name)}` } };
  });

  add('GET', '/connectors/:c', (_ctx, p) => ok(w.connectorInfo(p.c!)));
  add('DELETE', '/connectors/:c', async (_ctx, p) => {
    await w.deleteConnector(p.c!);
    return empty(204);
  });

  add('GET', '/connectors/:c/config', (_ctx, p) => ok(w.connectorConfig(p.c!)));
  // Deprecated in 3.9 but served: a map keyed by ConnectorTaskId.toString(), 404 when the
  // connector has no tasks (StandaloneHerder.tasksConfig tests the map for emptiness).
  add('GET', '/connectors/:c/tasks-config', (_ctx, p) => {
    const tasks = w.connectors().includes(p.c!) ? w.taskConfigs(p.c!) : [];
    if (!tasks.length) throw connectErrors.notFound(p.c!);
    const byId = new Map(tasks.map((t) => [`${t.id.connector}-${t.id.task}`, t.config]));
    const out: Record<string, unknown> = {};
    for (const k of javaHashMapOrder([...byId.keys()])) out[k] = byId.get(k);
    return ok(out);
  });
  add('PUT', '/connectors/:c/config', async (ctx, p) => {
    const config = checkAndPutName(p.c!, bindStringMap(parseBody(ctx.body)));
    const { created, info } = await w.putConnectorConfig(p.c!, config as ConnectorConfig, { allowReplace: true });
    return created ? { status: 201, body: info, headers: { location: `${ctx.url.origin}/connectors/${encodeURIComponent(p.c!)}` } } : ok(info);
  });
  add('PATCH', '/connectors/:c/config', async (ctx, p) => ok(await w.patchConnectorConfig(p.c!, bindStringMap(parseBody(ctx.body)))));

  add('GET', '/connectors/:c/status', (_ctx, p) => ok(w.status(p.c!)));
  add('PUT', '/connectors/:c/pause', (_ctx, p) => {
    w.pause(p.c!);
    return empty(202);
  });
  add('PUT', '/connectors/:c/resume', (_ctx, p) => {
    w.resume(p.c!);
    return empty(202);
  });
  add('PUT', '/connectors/:c/stop', async (_ctx, p) => {
    await w.stop(p.c!);
    return empty(204);
  });
  add('POST', '/connectors/:c/restart', async (ctx, p) => {
    const status = await w.restart(p.c!, bool(ctx.url.searchParams.get('includeTasks')), bool(ctx.url.searchParams.get('onlyFailed')));
    return status ? ok(status, 202) : empty(204);
  });

  add('GET', '/connectors/:c/tasks', (_ctx, p) => ok(w.taskConfigs(p.c!)));
  // InternalConnectResource: inter-worker calls that a standalone herder refuses by throwing
  // UnsupportedOperationException, which the exception mapper answers with a 500.
  add('POST', '/connectors/:c/tasks', (ctx) => {
    bindTaskConfigs(ctx.body);
    throw connectErrors.internal('Kafka Connect in standalone mode does not support externally setting task configurations.');
  });
  add('PUT', '/connectors/:c/fence', () => {
    throw connectErrors.internal('Kafka Connect in standalone mode does not support exactly-once source connectors.');
  });
  add('GET', '/connectors/:c/tasks/:t/status', (_ctx, p) => ok(w.taskStatus(p.c!, taskId(p.t!))));
  add('POST', '/connectors/:c/tasks/:t/restart', async (_ctx, p) => {
    await w.restartTask(p.c!, taskId(p.t!));
    return empty(204);
  });

  add('GET', '/connectors/:c/topics', (_ctx, p) => ok(w.activeTopics(p.c!)));
  add('PUT', '/connectors/:c/topics/reset', (_ctx, p) => {
    w.resetActiveTopics(p.c!);
    return empty(202);
  });

  add('GET', '/connectors/:c/offsets', async (_ctx, p) => ok(await w.getOffsets(p.c!)));
  add('PATCH', '/connectors/:c/offsets', async (ctx, p) => {
    const body = bindConnectorOffsets(parseBody(ctx.body));
    if (body === null) throw connectErrors.internal('Cannot invoke "org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets.offsets()" because "offsets" is null');
    // ConnectorsResource checks this before the herder looks the connector up.
    if (body.offsets === null || body.offsets.length === 0) throw connectErrors.badRequest('Partitions / offsets need to be provided for an alter offsets request');
    return ok(await w.alterOffsets(p.c!, body));
  });
  add('DELETE', '/connectors/:c/offsets', async (_ctx, p) => ok(await w.resetOffsets(p.c!)));

  // -------------------------------------------------------------------- /connector-plugins
  add('GET', '/connector-plugins', (ctx) => ok(withPredicates(w.plugins(bool(ctx.url.searchParams.get('connectorsOnly'), true)))));
  add('GET', '/connector-plugins/:p/config', (_ctx, p) => {
    const predicate = findPredicate(p.p!);
    return ok(predicate ? predicate.configDefs.map(({ recommended: _r, ...d }) => d) : w.pluginConfig(p.p!));
  });
  add('PUT', '/connector-plugins/:p/config/validate', async (ctx, p) => {
    const config = requireMap(bindStringMap(parseBody(ctx.body)), 'connectorConfig');
    const included = config['connector.class'];
    const norm = (s: string) => (s.endsWith('Connector') && s.length > 'Connector'.length ? s.slice(0, -'Connector'.length) : s);
    if (included !== undefined && included !== null && !norm(included).endsWith(norm(p.p!))) {
      throw connectErrors.badRequest(`Included connector type ${included} does not match request type ${p.p}`);
    }
    return ok(await w.validate(config as ConnectorConfig));
  });

  // ----------------------------------------------------------------------- /admin/loggers
  add('GET', '/admin/loggers', () => ok(loggers.allLevels()));
  add('GET', '/admin/loggers/:logger', (_ctx, p) => {
    const level = loggers.level(p.logger!);
    if (level === null) throw new ConnectError(404, `Logger ${p.logger} not found.`);
    return ok(level);
  });
  add('PUT', '/admin/loggers/:logger', (ctx, p) => {
    const levelMap = requireMap(bindStringMap(parseBody(ctx.body)), 'levelMap');
    const levelString = levelMap.level;
    if (levelString === undefined || levelString === null) throw connectErrors.badRequest("Desired 'level' parameter was not specified in request.");
    const level = Loggers.parseLevel(levelString);
    // LoggingResource throws NotFoundException here, hence a 404.
    if (level === null) throw new ConnectError(404, `invalid log level '${levelString}'.`);
    const affected = loggers.setLevel(p.logger!, level);
    // Any scope but "cluster" means this worker; in standalone mode the worker is the cluster.
    return (ctx.url.searchParams.get('scope') ?? 'worker').toLowerCase() === 'cluster' ? empty(204) : ok(affected);
  });

  // ------------------------------------------------------------------ Loupe: embedded SQL
  add('POST', '/loupe/sql', async (ctx) => {
    if (!deps.source) throw new ConnectError(404, 'This worker has no embedded source');
    const body = parseJson(ctx) as { database?: unknown; sql?: unknown } | null;
    if (!body || typeof body.sql !== 'string') throw connectErrors.badRequest('Body must be {"database": "<name>", "sql": "<statements>"}');
    const database = typeof body.database === 'string' && body.database !== '' ? body.database : null;
    try {
      // the statements' digests, not their text again (a 4.4 MB dump was echoed whole)
      return ok(sqlAnswer(await deps.source.execute(database, body.sql)));
    } catch (err) {
      if (err instanceof MySqlError) return { status: 400, body: { error: err.toJSON() } };
      throw err;
    }
  });

  return r;
}
