/**
 * The desktop app loads its renderer from `app://loupe/…`, a privileged scheme served from the
 * built renderer folder inside the package. A custom scheme (rather than file://) gives the page
 * a real origin, so `'self'` in the CSP means exactly the packaged files, and IPC can check
 * which page is asking.
 */
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { CONTENT_SECURITY_POLICY } from '../core/host/csp.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'loupe';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** Passed to protocol.registerSchemesAsPrivileged before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, stream: false },
};

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** True for URLs of the packaged renderer (the only pages allowed to call the host). */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Answers one app:// request from `rendererDir`. Only GET of files inside that folder; the
 * response carries the CSP (the same policy `loupe serve` sends).
 */
export async function serveAppRequest(rendererDir: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== APP_HOST) return new Response('Not Found', { status: 404 });
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method Not Allowed', { status: 405 });
  const root = path.resolve(rendererDir);
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return new Response('Bad Request', { status: 400 });
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = path.resolve(root, '.' + path.posix.normalize(rel));
  if (file !== root && !file.startsWith(root + path.sep)) return new Response('Not Found', { status: 404 });
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    return new Response('Not Found', { status: 404 });
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}
