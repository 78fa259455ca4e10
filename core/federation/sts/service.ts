/**
 * Starts the embedded token service: the AWS STS Query API on `POST /` (and `GET /?Action=…`),
 * the sign-in SAML metadata at `/saml-metadata.xml`, and Loupe's admin API under `/loupe/admin/`.
 */
import http from 'node:http';
import { closeServer, listen, sendJson, sendText } from '../../common/http.js';
import { uuid } from '../../common/ids.js';
import { StsError } from './errors.js';
import { errorXml } from './rest/xml.js';
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

/** AWS's Query API takes a SAMLAssertion of at most 100,000 characters; 2 MB leaves room for everything else. */
const BODY_LIMIT = 2 * 1024 * 1024;
/** Past this much, an oversized body is not even drained: the connection is cut. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Reads the body; one past BODY_LIMIT is read on and dropped (up to DRAIN_LIMIT, then the
 * connection is cut) so the client, still sending, gets an answer instead of a reset.
 */
function readBodyOrDrain(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > DRAIN_LIMIT) return req.destroy();
      if (size <= BODY_LIMIT) chunks.push(c);
      else chunks.length = 0;
    });
    req.once('end', () => resolve(size > BODY_LIMIT ? 'too-large' : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.readableEnded) reject(new Error('request aborted'));
    });
  });
}

export async function startStsService(ctx: ServiceContext, opts: StsServiceOptions = {}): Promise<ServiceHandle<StsApi>> {
  const log = ctx.log;
  const { store, created } = AccountStore.open(ctx.dataDir, opts.accountId ?? DEFAULT_STS_OPTIONS.accountId, log);
  const engine = new StsEngine(store, log, opts);
  const seeder = new DemoSeeder(engine, ctx.dataDir, { idpHttp: ctx.peers.idp, idpHttps: idpHttpsBase(ctx) }, log);

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let read: Buffer | 'too-large';
      try {
        read = await readBodyOrDrain(req);
      } catch {
        return;
      }
      if (read === 'too-large') {
        const err = new StsError('RequestEntityTooLarge', `Request body is larger than the ${BODY_LIMIT} bytes the token service accepts`, 413);
        return sendText(res, 413, errorXml(err, uuid()), 'text/xml', { connection: 'close' });
      }
      const body = read.toString('utf8');
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

  let port: number;
  try {
    port = await listen(server, ctx.host, ctx.port, 'sts', 'Set LOUPE_STS_PORT to another port.');
  } catch (err) {
    // a port taken by another program: nothing of this start may outlive it (a thread would keep loupe serve from exiting)
    await engine.close();
    throw err;
  }
  // The SAML threads start with the service (a thread takes a moment to load its modules), so
  // the first AssumeRoleWithSAML after start-up does not wait for one.
  engine.warmSamlReaders();
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
      await engine.close();
      await store.flush();
    },
  };
}
