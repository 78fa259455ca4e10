/**
 * HTTP helpers every embedded service uses: listening with a clear port-conflict error,
 * bounded body reading, a small router, and closing that frees the port for sure.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringifyExactJson } from './exact-json.js';

export class PortInUseError extends Error {
  constructor(
    readonly service: string,
    readonly port: number,
    readonly hint: string,
  ) {
    super(`${service}: port ${port} on 127.0.0.1 is already in use. ${hint}`);
    this.name = 'PortInUseError';
  }
}

/** Starts listening; EADDRINUSE becomes a PortInUseError naming the service, port and fix. */
export function listen(server: http.Server | import('node:https').Server, host: string, port: number, service: string, hint = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new PortInUseError(service, port, hint));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Closes a server and every keep-alive connection so the port is free when this resolves. */
export function closeServer(server: http.Server | import('node:https').Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

export async function readBody(req: http.IncomingMessage, limit = 100 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON; a bigint (a BIGINT or INT64 beyond 2^53) is written as its digits, where JSON.stringify would throw. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = stringifyExactJson(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, body: string, contentType = 'text/plain; charset=UTF-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export interface RouteMatch<Ctx> {
  handler: RouteHandler<Ctx>;
  params: Record<string, string>;
}
export type RouteHandler<Ctx> = (ctx: Ctx, params: Record<string, string>) => unknown;

/**
 * Method + path-pattern router. Patterns use `:name` segments; a `:name*` segment takes the
 * rest of the path. Literal segments win over parameters, so `/_search` beats `/:index`.
 */
export class Router<Ctx> {
  private routes: { method: string; parts: string[]; handler: RouteHandler<Ctx> }[] = [];

  add(method: string | string[], pattern: string, handler: RouteHandler<Ctx>): this {
    for (const m of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: m.toUpperCase(), parts: split(pattern), handler });
    }
    this.routes.sort((a, b) => specificity(b.parts) - specificity(a.parts));
    return this;
  }

  /** `undefined` when no route has the path; `'method'` when the path exists for other methods. */
  match(method: string, pathname: string): RouteMatch<Ctx> | 'method' | undefined {
    const segs = split(pathname);
    let pathKnown = false;
    for (const r of this.routes) {
      const params = matchParts(r.parts, segs);
      if (!params) continue;
      if (r.method === method.toUpperCase()) return { handler: r.handler, params };
      pathKnown = true;
    }
    return pathKnown ? 'method' : undefined;
  }

  /** Methods allowed on a path, for `Allow` headers and 405 answers. */
  allowed(pathname: string): string[] {
    const segs = split(pathname);
    return [...new Set(this.routes.filter((r) => matchParts(r.parts, segs)).map((r) => r.method))];
  }
}

function split(p: string): string[] {
  return p.split('/').filter((s) => s.length > 0);
}

function specificity(parts: string[]): number {
  // Longer patterns first, then more literal segments.
  return parts.length * 100 + parts.filter((p) => !p.startsWith(':')).length;
}

function matchParts(parts: string[], segs: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.startsWith(':') && p.endsWith('*')) {
      params[p.slice(1, -1)] = segs.slice(i).map(safeDecode).join('/');
      return params;
    }
    const s = segs[i];
    if (s === undefined) return undefined;
    if (p.startsWith(':')) params[p.slice(1)] = safeDecode(s);
    else if (p !== s) return undefined;
  }
  return segs.length === parts.length ? params : undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
