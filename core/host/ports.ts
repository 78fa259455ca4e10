/**
 * Every port Loupe opens, its default, the variable that changes it, and its place in
 * `--port-base N` (N, N+1, … N+7 in this order).
 */
import type { ServiceName } from '../common/service.js';

export const PORTS = [
  { key: 'search', env: 'LOUPE_SEARCH_PORT', default: 9200 },
  { key: 'idp', env: 'LOUPE_IDP_PORT', default: 8080 },
  { key: 'idpHttps', env: 'LOUPE_IDP_HTTPS_PORT', default: 8443 },
  { key: 'sts', env: 'LOUPE_STS_PORT', default: 8090 },
  { key: 'connect', env: 'LOUPE_CONNECT_PORT', default: 8083 },
  { key: 'clickhouse', env: 'LOUPE_CLICKHOUSE_PORT', default: 8123 },
  { key: 'ui', env: 'LOUPE_UI_PORT', default: 5170 },
  // the embedded CDC source's own address (MySQL's port): a connector naming it captures the embedded source
  { key: 'source', env: 'LOUPE_SOURCE_PORT', default: 3306 },
] as const;

export type PortKey = (typeof PORTS)[number]['key'];
export type PortMap = Record<PortKey, number>;

export const DEFAULT_PORTS: PortMap = Object.fromEntries(PORTS.map((p) => [p.key, p.default])) as PortMap;

export function portsFromBase(base: number): PortMap {
  return Object.fromEntries(PORTS.map((p, i) => [p.key, base + i])) as PortMap;
}

export function parsePort(value: string, what: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new Error(`${what} must be a port number from 1 to 65535, got "${value}"`);
  }
  return n;
}

/**
 * Ports fixed for this run by `--port-base` and by LOUPE_*_PORT variables (a variable wins over
 * the base). Returns only the keys that were fixed, with what fixed them.
 */
export function portOverrides(env: NodeJS.ProcessEnv, portBase?: number): { ports: Partial<PortMap>; by: Record<string, string> } {
  const ports: Partial<PortMap> = {};
  const by: Record<string, string> = {};
  if (portBase !== undefined) {
    const base = portsFromBase(portBase);
    for (const p of PORTS) {
      ports[p.key] = base[p.key];
      by[p.key] = `--port-base ${portBase}`;
    }
  }
  for (const p of PORTS) {
    const v = env[p.env];
    if (v !== undefined && v !== '') {
      ports[p.key] = parsePort(v, p.env);
      by[p.key] = p.env;
    }
  }
  return { ports, by };
}

export function portEnvFor(key: PortKey): string {
  return PORTS.find((p) => p.key === key)!.env;
}

export const SERVICE_PORT_KEY: Record<ServiceName, PortKey> = {
  search: 'search',
  idp: 'idp',
  sts: 'sts',
  connect: 'connect',
  clickhouse: 'clickhouse',
};
