/**
 * Loupe's own admin JSON API for the account (IAM has no wire protocol here worth copying):
 * providers, roles and issued sessions under /loupe/admin/, answered to loopback callers only.
 */
import type http from 'node:http';
import { Router, sendJson } from '../../../common/http.js';
import { AdminError, type StsEngine } from '../engine.js';

interface Ctx {
  engine: StsEngine;
  body: unknown;
}

type Handler = (ctx: Ctx, params: Record<string, string>) => Promise<[number, unknown]> | [number, unknown];

const router = new Router<Ctx>();
const route = (m: string, p: string, h: Handler) => router.add(m, p, h);

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v.length === 0) throw new AdminError('InvalidInput', `${what} is required (a string)`, 400);
  return v;
};
const strList = (v: unknown, what: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new AdminError('InvalidInput', `${what} must be an array of strings`, 400);
  return v as string[];
};
const obj = (b: unknown): Record<string, unknown> => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {});

route('GET', '/loupe/admin/account', ({ engine }) => {
  const a = engine.account();
  return [200, { ...a, samlProviders: a.samlProviders.map(({ metadataXml: _m, ...p }) => p) }];
});
route('GET', '/loupe/admin/saml-providers', ({ engine }) => [200, { samlProviders: engine.account().samlProviders.map(({ metadataXml: _m, ...p }) => p) }]);
route('POST', '/loupe/admin/saml-providers', async ({ engine, body }) => {
  const b = obj(body);
  return [201, await engine.createSamlProvider(str(b.name, 'name'), str(b.metadataXml, 'metadataXml'), { replace: b.replace === true })];
});
route('GET', '/loupe/admin/saml-providers/:name', ({ engine }, { name }) => {
  const p = engine.account().samlProviders.find((x) => x.name === name);
  if (!p) throw new AdminError('NoSuchEntity', `SAMLProvider ${name} does not exist.`, 404);
  return [200, p];
});
route('DELETE', '/loupe/admin/saml-providers/:name', async ({ engine }, { name }) => {
  await engine.deleteSamlProvider(`arn:aws:iam::${engine.options.accountId}:saml-provider/${name}`);
  return [200, { deleted: name }];
});
route('GET', '/loupe/admin/oidc-providers', ({ engine }) => [200, { oidcProviders: engine.account().oidcProviders }]);
route('POST', '/loupe/admin/oidc-providers', async ({ engine, body }) => {
  const b = obj(body);
  return [201, await engine.createOidcProvider(str(b.url, 'url'), strList(b.clientIds, 'clientIds'), strList(b.thumbprints, 'thumbprints'), { replace: b.replace === true })];
});
route('DELETE', '/loupe/admin/oidc-providers/:id*', async ({ engine }, { id }) => {
  await engine.deleteOidcProvider(`arn:aws:iam::${engine.options.accountId}:oidc-provider/${id}`);
  return [200, { deleted: id }];
});
route('GET', '/loupe/admin/roles', ({ engine }) => [200, { roles: engine.account().roles }]);
route('POST', '/loupe/admin/roles', async ({ engine, body }) => {
  const b = obj(body);
  const max = b.maxSessionDuration;
  if (max !== undefined && typeof max !== 'number') throw new AdminError('InvalidInput', 'maxSessionDuration must be a number of seconds', 400);
  return [
    201,
    await engine.createRole(
      { name: str(b.name, 'name'), trustPolicy: b.trustPolicy, maxSessionDuration: max as number | undefined, description: typeof b.description === 'string' ? b.description : undefined },
      { replace: b.replace === true },
    ),
  ];
});
route('DELETE', '/loupe/admin/roles/:name', async ({ engine }, { name }) => {
  await engine.deleteRole(`arn:aws:iam::${engine.options.accountId}:role/${name}`);
  return [200, { deleted: name }];
});
route('GET', '/loupe/admin/sessions', ({ engine }) => [200, { sessions: engine.sessions() }]);

export function isLoopback(req: http.IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';
}

export async function handleAdmin(engine: StsEngine, req: http.IncomingMessage, res: http.ServerResponse, url: URL, rawBody: string): Promise<void> {
  const fail = (status: number, code: string, message: string) => sendJson(res, status, { error: { code, message } });
  if (!isLoopback(req)) return fail(403, 'AccessDenied', 'The admin API answers loopback callers only');
  // A web page the user visits can reach loopback too: refuse other Host names (DNS rebinding)
  // and bodies a cross-site form could send without a CORS preflight.
  const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) return fail(403, 'AccessDenied', `The admin API answers requests addressed to 127.0.0.1 or localhost, not ${host || 'no Host'}`);
  if (rawBody.length > 0 && !String(req.headers['content-type'] ?? '').startsWith('application/json')) {
    return fail(415, 'UnsupportedMediaType', 'Send the admin API JSON with Content-Type: application/json');
  }
  const m = router.match(req.method ?? 'GET', url.pathname);
  if (m === undefined) return fail(404, 'NotFound', `No admin resource at ${url.pathname}`);
  if (m === 'method') return fail(405, 'MethodNotAllowed', `${req.method} is not allowed on ${url.pathname}; allowed: ${router.allowed(url.pathname).join(', ')}`);
  let body: unknown = undefined;
  if (rawBody.length > 0) {
    try {
      body = JSON.parse(rawBody);
    } catch {
      return fail(400, 'InvalidInput', 'The request body is not valid JSON');
    }
  }
  try {
    const [status, out] = await (m.handler as Handler)({ engine, body }, m.params);
    sendJson(res, status, out);
  } catch (err) {
    if (err instanceof AdminError) return fail(err.status, err.code, err.message);
    return fail(500, 'ServiceFailure', (err as Error).message);
  }
}
