/**
 * Starts the embedded identity provider: Keycloak's endpoints over HTTP on ctx.port and HTTPS
 * (self-signed certificate, made once and kept) on ctx.httpsPort, both on 127.0.0.1.
 *
 * Environment: LOUPE_IDP_CLOUD_DOMAIN (default https://aws.amazon.com),
 * LOUPE_IDP_ADMIN_PASSWORD (master realm admin password on first start; otherwise generated
 * and written to <dataDir>/admin-password, mode 0600).
 */
import path from 'node:path';
import type { ServiceContext, ServiceHandle } from '../../common/service.js';
import { listen, closeServer } from '../../common/http.js';
import { systemClock, type Clock } from '../../common/clock.js';
import { loadOrCreateTlsMaterial } from '../oidc/keys.js';
import { IdpEngine } from './engine.js';
import { createServers } from './http/server.js';
import { createIdpApi, type IdpApi } from './api.js';

export interface IdpServiceOptions {
  clock?: Clock;
  cloudDomain?: string;
  adminPassword?: string;
  seedDemo?: boolean;
}

export async function startIdpService(ctx: ServiceContext, opts: IdpServiceOptions = {}): Promise<ServiceHandle<IdpApi>> {
  const log = ctx.log;
  const cloudDomain = opts.cloudDomain ?? process.env.LOUPE_IDP_CLOUD_DOMAIN;
  if (cloudDomain !== undefined && !/^https?:\/\/[^\s/]+/.test(cloudDomain)) throw new Error(`LOUPE_IDP_CLOUD_DOMAIN must be a URL like https://aws.amazon.com, got ${cloudDomain}`);
  const engine = await IdpEngine.open(ctx.dataDir, log, {
    clock: opts.clock ?? systemClock,
    ...(cloudDomain ? { cloudDomain } : {}),
    ...(opts.adminPassword ? { adminPassword: opts.adminPassword } : {}),
    ...(opts.seedDemo !== undefined ? { seedDemo: opts.seedDemo } : {}),
  });
  const tls = await loadOrCreateTlsMaterial(path.join(ctx.dataDir, 'keys'));
  const servers = createServers(engine, log, tls);
  let httpPort: number;
  let httpsPort: number;
  try {
    httpPort = await listen(servers.http, ctx.host, ctx.port, 'idp', 'Set LOUPE_IDP_PORT to another port.');
    httpsPort = await listen(servers.https, ctx.host, ctx.httpsPort ?? 0, 'idp (https)', 'Set LOUPE_IDP_HTTPS_PORT to another port.');
  } catch (err) {
    await closeServer(servers.http);
    await engine.close();
    throw err;
  }
  const url = `http://${ctx.host}:${httpPort}`;
  const httpsUrl = `https://${ctx.host}:${httpsPort}`;
  log.info('identity provider listening', { url, https: httpsUrl });
  let closed = false;
  return {
    url,
    extraUrls: { https: httpsUrl },
    api: createIdpApi(engine, url, httpsUrl, tls.cert),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([closeServer(servers.http), closeServer(servers.https)]);
      await engine.close();
    },
  };
}
