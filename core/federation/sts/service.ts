/**
 * Starts the embedded token service: the AWS STS Query API on `POST /` (and `GET /?Action=…`),
 * the sign-in SAML metadata at `/saml-metadata.xml`, and Loupe's admin API under `/loupe/admin/`.
 */
import http from 'node:http';
import { BodyTooLargeError, closeServer, listen, readBody, sendJson, sendText } from '../../common/http.js';
import type { ServiceContext, ServiceHandle } from '../../common/service.js';
import { AccountStore } from './account/store.js';
import { StsEngine } from './engine.js';
import { DEFAULT_STS_OPTIONS, type StsOptions } from './options.js';
import { handleAdmin } from './rest/admin-api.js';
import { handleQuery } from './rest/query-api.js';
import { DemoSeeder } from './seed.js';
import { signinMetadataXml } from './signin-metadata.js';

export interface StsApi {
  engine: StsEngine;
  seeder: DemoSeeder;
}

export interface StsServiceOptions extends Partial<StsOptions> {
  /** Create the demo account on first start (default true). */
  seed?: boolean;
}

/** The IdP's HTTPS base URL: the `idpHttps` peer, else LOUPE_IDP_HTTPS_PORT, else 8443. */
export function idpHttpsBase(ctx: ServiceContext): string {
  const peer = (ctx.peers as Record<string, string | undefined>).idpHttps;
  if (peer) return /^\d+$/.test(peer) ? `https://127.0.0.1:${peer}` : peer.replace(/\/+$/, '');
  const port = process.env.LOUPE_IDP_HTTPS_PORT;
  return `https://127.0.0.1:${port && /^\d+$/.test(port) ? port : '8443'}`;
}

export async function startStsService(ctx: ServiceContext, opts: StsServiceOptions = {}): Promise<ServiceHandle<StsApi>> {
  const log = ctx.log;
  const { store, created } = AccountStore.open(ctx.dataDir, opts.accountId ?? DEFAULT_STS_OPTIONS.accountId, log);
  const engine = new StsEngine(store, log, opts);
  const seeder = new DemoSeeder(engine, ctx.dataDir, { idpHttp: ctx.peers.idp, idpHttps: idpHttpsBase(ctx) }, log);

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: string;
      try {
        body = (await readBody(req, 2 * 1024 * 1024)).toString('utf8');
      } catch (err) {
        if (err instanceof BodyTooLargeError) return sendText(res, 413, 'request body too large');
        return;
      }
      // Lazy seeding: a provider the IdP could not give us at start is tried again first
      // (briefly: a silent IdP must not hold requests up).
      await seeder.attemptBriefly();
      if (url.pathname === '/saml-metadata.xml' || url.pathname === '/static/saml-metadata.xml') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'use GET', 'text/plain', { allow: 'GET, HEAD' });
        return sendText(res, 200, signinMetadataXml(engine.options.cloudDomain), 'application/samlmetadata+xml', { 'content-disposition': 'attachment; filename="saml-metadata.xml"' });
      }
      if (url.pathname === '/loupe/admin/seed') return sendJson(res, 200, seeder.status());
      if (url.pathname.startsWith('/loupe/admin/')) return handleAdmin(engine, req, res, url, body);
      if (url.pathname === '/' && (req.method === 'POST' || req.method === 'GET')) return handleQuery(engine, req, res, url, body, log);
      return sendText(res, 404, `No STS resource at ${url.pathname}: the Query API is POST /`, 'text/plain; charset=UTF-8');
    })().catch((err) => {
      log.error('unhandled STS error', { error: (err as Error).message });
      if (!res.headersSent) sendText(res, 500, 'internal error');
    });
  });

  const port = await listen(server, ctx.host, ctx.port, 'sts', 'Set LOUPE_STS_PORT to another port.');
  if (opts.seed !== false) await seeder.start(created);
  let closed = false;
  return {
    url: `http://${ctx.host}:${port}`,
    api: { engine, seeder },
    async close() {
      if (closed) return;
      closed = true;
      seeder.stop();
      await closeServer(server);
      await store.flush();
    },
  };
}
