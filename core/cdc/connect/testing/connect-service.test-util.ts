/**
 * An embedded Connect service per test, over its REST API: `start()` gives the handle, its data
 * directory and `call(method, path, body?, headers?)`, which answers status and parsed body (and
 * the response headers, as a non-enumerable property). Services and directories are closed and
 * removed after each test; a directory passed in (to restart on the same data) is left to the
 * test that made it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { silentLogger } from '../../../common/log.js';
import type { ServiceHandle } from '../../../common/service.js';
import { startConnectService, type ConnectApi } from '../service.js';

// Response bodies are checked field by field against Kafka Connect's shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ConnectCall {
  (method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }>;
}

export function useConnectService(prefix: string): (dir?: string) => Promise<{ h: ServiceHandle<ConnectApi>; dir: string; call: ConnectCall }> {
  const handles: ServiceHandle<ConnectApi>[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return async (dir) => {
    const d = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    if (!dir) dirs.push(d);
    const h = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: d, log: silentLogger, peers: {} }, {});
    handles.push(h);
    const call: ConnectCall = async (method, p, body, headers = { 'content-type': 'application/json' }) => {
      const r = await fetch(h.url + p, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
      const text = await r.text();
      // headers not enumerable: tests compare the whole answer with toEqual({ status, body })
      return Object.defineProperty({ status: r.status, body: text ? JSON.parse(text) : null }, 'headers', { value: r.headers, enumerable: false }) as { status: number; body: Json; headers: Headers };
    };
    return { h, dir: d, call };
  };
}
