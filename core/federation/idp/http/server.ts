/**
 * The IdP's HTTP and HTTPS listeners: one router, both ports. Unknown paths answer like
 * Keycloak (404 {"error":"Unable to find matching target resource method"}); any unexpected
 * failure answers 500 without internals and the server keeps serving.
 */
import http from 'node:http';
import https from 'node:https';
import { Router, sendJson, sendText, BodyTooLargeError } from '../../../common/http.js';
import { welcomePage } from './pages.js';
import type { Logger } from '../../../common/log.js';
import type { IdpEngine } from '../engine.js';
import { IdpError } from '../model.js';
import { OAuthError } from '../../oidc/errors.js';
import { addProtocolRoutes, type HttpCtx } from './protocol-routes.js';
import { addAdminRoutes, sendIdpError } from './admin-routes.js';

export function buildRouter(engine: IdpEngine): Router<HttpCtx> {
  const router = new Router<HttpCtx>();
  const welcome = (ctx: HttpCtx, prefix: string) =>
    sendText(
      ctx.res,
      200,
      welcomePage(
        engine.store.listRealms().map((r) => {
          const realmUrl = `${ctx.base}${prefix}/realms/${encodeURIComponent(r.realm)}`;
          return {
            realm: r.realm,
            ...(r.displayName ? { displayName: r.displayName } : {}),
            realmUrl,
            sso: r.clients.flatMap((c) => (c.protocol === 'saml' && c.enabled ? [{ urlName: c.urlName, ...(c.name ? { name: c.name } : {}), url: `${realmUrl}/protocol/saml/clients/${encodeURIComponent(c.urlName)}` }] : [])),
          };
        }),
      ),
      'text/html;charset=utf-8',
      { 'cache-control': 'no-store', 'x-frame-options': 'SAMEORIGIN' },
    );
  router.add('GET', '/', (ctx) => welcome(ctx, ''));
  router.add('GET', '/auth', (ctx) => welcome(ctx, '/auth'));
  addProtocolRoutes(router, engine);
  addAdminRoutes(router, engine);
  return router;
}

export function requestListener(router: Router<HttpCtx>, log: Logger, secure: boolean): http.RequestListener {
  return (req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://x');
      } catch {
        return sendJson(res, 400, { error: 'invalid_request', error_description: 'Bad request URL' });
      }
      const host = req.headers.host ?? `127.0.0.1:${req.socket.localPort}`;
      const ctx: HttpCtx = { req, res, url, base: `${secure ? 'https' : 'http'}://${host}`, secure };
      const m = router.match(req.method ?? 'GET', url.pathname.replace(/\/+$/, '') || '/');
      if (m === undefined) return sendJson(res, 404, { error: 'Unable to find matching target resource method' });
      if (m === 'method') return sendJson(res, 405, { error: 'HTTP 405 Method Not Allowed' }, { allow: router.allowed(url.pathname).join(', ') });
      try {
        await m.handler(ctx, m.params);
      } catch (err) {
        if (res.headersSent) return res.destroy();
        // The rest of an oversized body is never read, so this connection cannot be reused.
        if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: 'invalid_request', error_description: 'Request entity too large' }, { connection: 'close' });
        if (err instanceof OAuthError) return sendJson(res, err.status, err.toJSON());
        if (err instanceof IdpError) return sendIdpError(ctx, err);
        log.error('request failed', { method: req.method, path: url.pathname, error: (err as Error).message });
        sendJson(res, 500, { error: 'unknown_error' });
      }
    })();
  };
}

export function createServers(engine: IdpEngine, log: Logger, tls: { key: string; cert: string }): { http: http.Server; https: https.Server } {
  const router = buildRouter(engine);
  const plain = http.createServer(requestListener(router, log, false));
  const secure = https.createServer({ key: tls.key, cert: tls.cert }, requestListener(router, log, true));
  for (const s of [plain, secure]) {
    s.headersTimeout = 30_000;
    s.requestTimeout = 60_000;
    s.on('clientError', (_err, socket) => socket.destroy());
  }
  return { http: plain, https: secure };
}
