/**
 * A tiny real HTTP service for supervisor and transport tests: it answers `GET /` with its name,
 * so tests exercise real ports without loading an engine.
 */
import http from 'node:http';
import { closeServer, listen, sendJson } from '../../common/http.js';
import { SERVICE_NAMES, type ServiceName, type ServiceStarter } from '../../common/service.js';
import type { ServiceEntry } from '../registry.js';

export function echoStarter(name: ServiceName): ServiceStarter<{ hits: () => number }> {
  return async (ctx) => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      sendJson(res, 200, { name, dataDir: ctx.dataDir });
    });
    const port = await listen(server, ctx.host, ctx.port, name);
    return { url: `http://${ctx.host}:${port}`, api: { hits: () => hits }, close: () => closeServer(server) };
  };
}

/** A registry where every service is an echo service, except the names left out (unavailable). */
export function echoRegistry(available: readonly ServiceName[] = SERVICE_NAMES): Record<ServiceName, ServiceEntry> {
  return Object.fromEntries(
    SERVICE_NAMES.map((n) => [n, { name: n, protocol: `echo ${n}`, ...(available.includes(n) ? { load: async () => echoStarter(n) } : {}) }]),
  ) as Record<ServiceName, ServiceEntry>;
}
