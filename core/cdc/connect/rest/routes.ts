/**
 * Kafka Connect's REST resources (RootResource, ConnectorsResource, ConnectorPluginsResource)
 * mapped onto the worker, plus Loupe's own `POST /loupe/sql` for the embedded source. Routes only
 * translate: statuses and bodies follow Kafka Connect 3.9.
 */
import type http from 'node:http';
import { Router } from '../../../common/http.js';
import type { QuerySource } from '../../source/types.js';
import { MySqlError } from '../../source/mysql-error.js';
import { ConnectError, connectErrors } from '../errors.js';
import type { ConnectorConfig } from '../plugin.js';
import type { Worker } from '../worker/worker.js';

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
}

type Handler = (ctx: RestRequest, params: Record<string, string>) => Promise<RestResponse> | RestResponse;

const ok = (body: unknown, status = 200): RestResponse => ({ status, body });
const empty = (status: number): RestResponse => ({ status });

/** Jersey answers a non-integer `{task}` path segment with a plain 404. */
function taskId(raw: string): number {
  if (!/^-?\d+$/.test(raw)) throw new ConnectError(404, 'HTTP 404 Not Found');
  return Number(raw);
}

function bool(v: string | null): boolean {
  return (v ?? 'false').toLowerCase() === 'true';
}

/** Kafka Connect reads config maps as Map<String,String>: scalars become strings, null stays null. */
export function toConfigMap(raw: unknown, what: string): Record<string, string> {
  if (raw === null || raw === undefined) throw connectErrors.internal(`Cannot invoke "java.util.Map.get(Object)" because "${what}" is null`);
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw connectErrors.internal(`Cannot deserialize value of type \`java.util.HashMap<java.lang.String,java.lang.String>\` from ${Array.isArray(raw) ? 'Array value (token `JsonToken.START_ARRAY`)' : typeof raw === 'string' ? 'String value (token `JsonToken.VALUE_STRING`)' : 'Number value'}`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (v !== null && typeof v === 'object') {
      throw connectErrors.internal(`Cannot deserialize value of type \`java.lang.String\` from ${Array.isArray(v) ? 'Array value (token `JsonToken.START_ARRAY`)' : 'Object value (token `JsonToken.START_OBJECT`)'}`);
    }
    out[k] = v === null ? (null as unknown as string) : String(v);
  }
  return out;
}

function checkAndPutName(name: string, config: Record<string, string>): void {
  const included = config.name;
  if (included !== undefined && included !== null) {
    if (included !== name) throw connectErrors.badRequest(`Connector name configuration (${included}) doesn't match connector name in the URL (${name})`);
  } else config.name = name;
}

export function buildRoutes(deps: RouteDeps, parseJson: (ctx: RestRequest) => unknown): Router<RestRequest> {
  const w = deps.worker;
  const r = new Router<RestRequest>();
  const add = (method: string, pattern: string, h: Handler) => r.add(method, pattern, h as never);

  add('GET', '/', () => ok(w.serverInfo()));

  // ------------------------------------------------------------------------- /connectors
  add('GET', '/connectors', (ctx) => {
    const expand = ctx.url.searchParams.getAll('expand');
    if (!ctx.url.searchParams.has('expand')) return ok(w.connectors());
    const out: Record<string, Record<string, unknown>> = {};
    for (const name of w.connectors()) {
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
    const body = parseJson(ctx) as { name?: unknown; config?: unknown; initial_state?: unknown } | null;
    if (body === null || body === undefined) throw connectErrors.internal('Cannot invoke "org.apache.kafka.connect.runtime.rest.entities.CreateConnectorRequest.name()" because "createRequest" is null');
    if (typeof body !== 'object' || Array.isArray(body)) throw connectErrors.internal('Cannot construct instance of `org.apache.kafka.connect.runtime.rest.entities.CreateConnectorRequest`');
    const name = body.name === null || body.name === undefined ? '' : String(body.name).trim();
    const config = toConfigMap(body.config, 'connectorConfig');
    checkAndPutName(name, config);
    let initialState: 'RUNNING' | 'PAUSED' | 'STOPPED' | undefined;
    if (body.initial_state !== undefined && body.initial_state !== null) {
      const s = String(body.initial_state).toUpperCase();
      if (s !== 'RUNNING' && s !== 'PAUSED' && s !== 'STOPPED') throw connectErrors.badRequest(`Invalid initial state ${String(body.initial_state)}. Valid initial states are: RUNNING, PAUSED, STOPPED`);
      initialState = s;
    }
    if (name === '') throw connectErrors.badRequest('Connector configuration is invalid and contains the following 1 error(s):\nInvalid value  for configuration name: String may not be empty\nYou can also find the above list of errors at the endpoint `/connector-plugins/{connectorType}/config/validate`');
    const { info } = await w.putConnectorConfig(name, config as ConnectorConfig, { allowReplace: false, initialState });
    return { status: 201, body: info, headers: { location: `${ctx.url.origin}/connectors/${encodeURIComponent(name)}` } };
  });

  add('GET', '/connectors/:c', (_ctx, p) => ok(w.connectorInfo(p.c!)));
  add('DELETE', '/connectors/:c', async (_ctx, p) => {
    await w.deleteConnector(p.c!);
    return empty(204);
  });

  add('GET', '/connectors/:c/config', (_ctx, p) => ok(w.connectorConfig(p.c!)));
  add('PUT', '/connectors/:c/config', async (ctx, p) => {
    const config = toConfigMap(parseJson(ctx), 'connectorConfig');
    checkAndPutName(p.c!, config);
    const { created, info } = await w.putConnectorConfig(p.c!, config as ConnectorConfig, { allowReplace: true });
    return created ? { status: 201, body: info, headers: { location: `${ctx.url.origin}/connectors/${encodeURIComponent(p.c!)}` } } : ok(info);
  });
  add('PATCH', '/connectors/:c/config', async (ctx, p) => {
    const patch = toConfigMap(parseJson(ctx), 'connectorConfigPatch');
    return ok(await w.patchConnectorConfig(p.c!, patch));
  });

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
  add('PATCH', '/connectors/:c/offsets', async (ctx, p) => ok(await w.alterOffsets(p.c!, parseJson(ctx))));
  add('DELETE', '/connectors/:c/offsets', async (_ctx, p) => ok(await w.resetOffsets(p.c!)));

  // -------------------------------------------------------------------- /connector-plugins
  add('GET', '/connector-plugins', (ctx) => ok(w.plugins(ctx.url.searchParams.get('connectorsOnly') !== 'false')));
  add('GET', '/connector-plugins/:p/config', (_ctx, p) => ok(w.pluginConfig(p.p!)));
  add('PUT', '/connector-plugins/:p/config/validate', async (ctx, p) => {
    const config = toConfigMap(parseJson(ctx), 'connectorConfig');
    const included = config['connector.class'];
    const norm = (s: string) => (s.endsWith('Connector') && s.length > 'Connector'.length ? s.slice(0, -'Connector'.length) : s);
    if (included !== undefined && included !== null && !norm(included).endsWith(norm(p.p!))) {
      throw connectErrors.badRequest(`Included connector type ${included} does not match request type ${p.p}`);
    }
    return ok(await w.validate(config as ConnectorConfig));
  });

  // ------------------------------------------------------------------ Loupe: embedded SQL
  add('POST', '/loupe/sql', async (ctx) => {
    if (!deps.source) throw new ConnectError(404, 'This worker has no embedded source');
    const body = parseJson(ctx) as { database?: unknown; sql?: unknown } | null;
    if (!body || typeof body.sql !== 'string') throw connectErrors.badRequest('Body must be {"database": "<name>", "sql": "<statements>"}');
    const database = typeof body.database === 'string' && body.database !== '' ? body.database : null;
    try {
      const results = await deps.source.execute(database, body.sql);
      return ok({ results });
    } catch (err) {
      if (err instanceof MySqlError) return { status: 400, body: { error: err.toJSON() } };
      throw err;
    }
  });

  return r;
}
