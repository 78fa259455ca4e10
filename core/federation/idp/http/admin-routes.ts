/**
 * The admin JSON API on Keycloak's paths (/admin/realms/…). Protection, as in Keycloak: a Bearer
 * access token from the master realm (password grant, client `admin-cli`, user `admin`) whose
 * user holds the master realm's `admin` role. On top of that only loopback peers addressing the
 * server as 127.0.0.1/localhost are served (guards against DNS rebinding).
 */
import { sendJson, readBody, type Router } from '../../../common/http.js';
import type { IdpEngine } from '../engine.js';
import { IdpError, type RealmRecord } from '../model.js';
import { verifyOwnJwt } from '../../oidc/tokens.js';
import { realmRep, userRep, groupRep, roleRep, clientRep, mapperRep, samlClientFromRep, oidcClientFromRep, clientPatchFromRep } from '../representations.js';
import { parseSpMetadata } from '../../saml/sp-metadata.js';
import { certBase64 } from '../../oidc/certificates.js';
import type { HttpCtx } from './protocol-routes.js';
import { realmUrl } from './protocol-routes.js';

type Json = Record<string, unknown>;

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

async function authorize(engine: IdpEngine, ctx: HttpCtx): Promise<boolean> {
  const peer = ctx.req.socket.remoteAddress ?? '';
  const host = (ctx.req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (!LOOPBACK_PEERS.has(peer) || !LOOPBACK_HOSTS.has(host)) {
    sendJson(ctx.res, 403, { error: 'HTTP 403 Forbidden' });
    return false;
  }
  const auth = ctx.req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  const claims = m ? await verifyOwnJwt(engine.keys, m[1]!, { issuer: `${ctx.base}/realms/master`, now: engine.clock.now(), typ: 'Bearer' }) : undefined;
  const claimsAuth = !claims && m ? await verifyOwnJwt(engine.keys, m[1]!, { issuer: `${ctx.base}/auth/realms/master`, now: engine.clock.now(), typ: 'Bearer' }) : undefined;
  const c = typeof claims === 'object' ? claims : typeof claimsAuth === 'object' ? claimsAuth : undefined;
  if (!c) {
    sendJson(ctx.res, 401, { error: 'HTTP 401 Unauthorized' }, { 'www-authenticate': 'Bearer realm="master"' });
    return false;
  }
  const master = engine.store.realm('master');
  const user = master.users.find((u) => u.id === c.sub && u.enabled);
  if (!user || !engine.store.effectiveRoles(master, user).includes('admin')) {
    sendJson(ctx.res, 403, { error: 'HTTP 403 Forbidden' });
    return false;
  }
  return true;
}

async function jsonBody(ctx: HttpCtx): Promise<unknown> {
  const raw = (await readBody(ctx.req, 5 * 1024 * 1024)).toString('utf8');
  try {
    return raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    throw new IdpError(400, 'invalid_request', 'Cannot parse the JSON');
  }
}

async function objectBody(ctx: HttpCtx): Promise<Json> {
  const b = await jsonBody(ctx);
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new IdpError(400, 'invalid_request', 'Expected a JSON object');
  return b as Json;
}

/** Role lists come as RoleRepresentation arrays ([{name}]) as in Keycloak, or as plain names. */
async function roleNames(ctx: HttpCtx): Promise<string[]> {
  const b = await jsonBody(ctx);
  if (!Array.isArray(b)) throw new IdpError(400, 'invalid_request', 'Expected a list of roles');
  return b.map((x) => (typeof x === 'string' ? x : typeof x?.name === 'string' ? x.name : typeof x?.id === 'string' ? x.id : '')).filter(Boolean);
}

function created(ctx: HttpCtx, location: string, body?: unknown): void {
  if (body === undefined) {
    ctx.res.writeHead(201, { location, 'content-length': 0 });
    ctx.res.end();
  } else sendJson(ctx.res, 201, body, { location });
}

function noContent(ctx: HttpCtx): void {
  ctx.res.writeHead(204);
  ctx.res.end();
}

export function sendIdpError(ctx: HttpCtx, err: IdpError): void {
  if (err.status === 404) sendJson(ctx.res, 404, { error: err.description });
  else sendJson(ctx.res, err.status, { errorMessage: err.description });
}

export function addAdminRoutes(router: Router<HttpCtx>, engine: IdpEngine): void {
  const s = engine.store;
  for (const prefix of ['', '/auth']) {
    const A = `${prefix}/admin/realms`;
    const R = `${A}/:realm`;
    const guard =
      (fn: (ctx: HttpCtx, p: Record<string, string>, realm: RealmRecord) => unknown, needsRealm = true) =>
      async (ctx: HttpCtx, p: Record<string, string>) => {
        if (!(await authorize(engine, ctx))) return;
        try {
          await fn(ctx, p, needsRealm ? s.realm(p.realm!) : (undefined as unknown as RealmRecord));
        } catch (err) {
          if (err instanceof IdpError) return sendIdpError(ctx, err);
          throw err;
        }
      };
    const loc = (ctx: HttpCtx, path: string) => `${ctx.base}${path}`;

    // realms
    router.add('GET', A, guard((ctx) => sendJson(ctx.res, 200, s.listRealms().map(realmRep)), false));
    router.add(
      'POST',
      A,
      guard(async (ctx) => {
        const b = await objectBody(ctx);
        const attrs = (b.attributes as Json | undefined) ?? {};
        const cloudDomain = typeof b.cloudDomain === 'string' ? b.cloudDomain : typeof attrs.cloudDomain === 'string' ? attrs.cloudDomain : undefined;
        const r = await s.createRealm({ realm: String(b.realm ?? ''), ...(typeof b.displayName === 'string' ? { displayName: b.displayName } : {}), ...(typeof b.enabled === 'boolean' ? { enabled: b.enabled } : {}), ...(cloudDomain ? { cloudDomain } : {}) });
        created(ctx, loc(ctx, `${A}/${r.realm}`));
      }, false),
    );
    router.add('GET', R, guard((ctx, _p, r) => sendJson(ctx.res, 200, realmRep(r))));
    router.add(
      'PUT',
      R,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const attrs = (b.attributes as Json | undefined) ?? {};
        const num = (k: string) => (typeof b[k] === 'number' ? (b[k] as number) : undefined);
        await s.updateRealm(r.realm, {
          ...(typeof b.displayName === 'string' ? { displayName: b.displayName } : {}),
          ...(typeof b.enabled === 'boolean' ? { enabled: b.enabled } : {}),
          ...(typeof (b.cloudDomain ?? attrs.cloudDomain) === 'string' ? { cloudDomain: String(b.cloudDomain ?? attrs.cloudDomain) } : {}),
          ...Object.fromEntries((['accessTokenLifespan', 'accessCodeLifespan', 'ssoSessionIdleTimeout', 'ssoSessionMaxLifespan'] as const).map((k) => [k, num(k)]).filter(([, v]) => v !== undefined)),
        });
        noContent(ctx);
      }),
    );
    router.add('DELETE', R, guard(async (ctx, _p, r) => (await s.deleteRealm(r.realm), noContent(ctx))));

    // users
    router.add(
      'GET',
      `${R}/users`,
      guard((ctx, _p, r) => {
        const q = ctx.url.searchParams;
        const exact = q.get('exact') === 'true';
        const match = (v: string | undefined, want: string | null) => want === null || (v !== undefined && (exact ? v.toLowerCase() === want.toLowerCase() : v.toLowerCase().includes(want.toLowerCase())));
        const search = q.get('search');
        const users = r.users.filter(
          (u) => match(u.username, q.get('username')) && match(u.email, q.get('email')) && (search === null || [u.username, u.email, u.firstName, u.lastName].some((v) => v?.toLowerCase().includes(search.toLowerCase()))),
        );
        sendJson(ctx.res, 200, users.map((u) => userRep(r, u)));
      }),
    );
    router.add(
      'POST',
      `${R}/users`,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const creds = Array.isArray(b.credentials) ? (b.credentials as Json[]) : [];
        const password = creds.find((c) => c.type === 'password' && typeof c.value === 'string')?.value as string | undefined;
        const u = await s.createUser(r.realm, {
          username: String(b.username ?? ''),
          ...(password !== undefined ? { password } : {}),
          ...(typeof b.email === 'string' ? { email: b.email } : {}),
          ...(typeof b.firstName === 'string' ? { firstName: b.firstName } : {}),
          ...(typeof b.lastName === 'string' ? { lastName: b.lastName } : {}),
          ...(typeof b.enabled === 'boolean' ? { enabled: b.enabled } : {}),
          ...(Array.isArray(b.realmRoles) ? { realmRoles: b.realmRoles as string[] } : {}),
          ...(Array.isArray(b.groups) ? { groups: b.groups as string[] } : {}),
          ...(b.attributes && typeof b.attributes === 'object' ? { attributes: b.attributes as Record<string, string[]> } : {}),
        });
        created(ctx, loc(ctx, `${A}/${r.realm}/users/${u.id}`));
      }),
    );
    router.add('GET', `${R}/users/:id`, guard((ctx, p, r) => sendJson(ctx.res, 200, userRep(r, s.user(r, p.id!)))));
    router.add(
      'PUT',
      `${R}/users/:id`,
      guard(async (ctx, p, r) => {
        const b = await objectBody(ctx);
        await s.updateUser(r.realm, p.id!, {
          ...(typeof b.email === 'string' ? { email: b.email } : {}),
          ...(typeof b.firstName === 'string' ? { firstName: b.firstName } : {}),
          ...(typeof b.lastName === 'string' ? { lastName: b.lastName } : {}),
          ...(typeof b.enabled === 'boolean' ? { enabled: b.enabled } : {}),
          ...(b.attributes && typeof b.attributes === 'object' ? { attributes: b.attributes as Record<string, string[]> } : {}),
        });
        noContent(ctx);
      }),
    );
    router.add('DELETE', `${R}/users/:id`, guard(async (ctx, p, r) => (await s.deleteUser(r.realm, p.id!), noContent(ctx))));
    router.add(
      'PUT',
      `${R}/users/:id/reset-password`,
      guard(async (ctx, p, r) => {
        const b = await objectBody(ctx);
        await s.setPassword(r.realm, p.id!, typeof b.value === 'string' ? b.value : '');
        noContent(ctx);
      }),
    );
    router.add('GET', `${R}/users/:id/role-mappings/realm`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.user(r, p.id!).realmRoles.map((n) => roleRep(r, s.role(r, n))))));
    router.add('GET', `${R}/users/:id/role-mappings/realm/composite`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.effectiveRoles(r, s.user(r, p.id!)).map((n) => roleRep(r, s.role(r, n))))));
    router.add('POST', `${R}/users/:id/role-mappings/realm`, guard(async (ctx, p, r) => (await s.mapUserRoles(r.realm, p.id!, await roleNames(ctx), true), noContent(ctx))));
    router.add('DELETE', `${R}/users/:id/role-mappings/realm`, guard(async (ctx, p, r) => (await s.mapUserRoles(r.realm, p.id!, await roleNames(ctx), false), noContent(ctx))));
    router.add('GET', `${R}/users/:id/groups`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.user(r, p.id!).groups.map((g) => groupRep(s.group(r, g))))));
    router.add('PUT', `${R}/users/:id/groups/:groupId`, guard(async (ctx, p, r) => (await s.setUserGroup(r.realm, p.id!, p.groupId!, true), noContent(ctx))));
    router.add('DELETE', `${R}/users/:id/groups/:groupId`, guard(async (ctx, p, r) => (await s.setUserGroup(r.realm, p.id!, p.groupId!, false), noContent(ctx))));

    // groups
    router.add('GET', `${R}/groups`, guard((ctx, _p, r) => sendJson(ctx.res, 200, r.groups.map(groupRep))));
    router.add(
      'POST',
      `${R}/groups`,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const g = await s.createGroup(r.realm, { name: String(b.name ?? ''), ...(Array.isArray(b.realmRoles) ? { realmRoles: b.realmRoles as string[] } : {}) });
        created(ctx, loc(ctx, `${A}/${r.realm}/groups/${g.id}`));
      }),
    );
    router.add('GET', `${R}/groups/:id`, guard((ctx, p, r) => sendJson(ctx.res, 200, groupRep(s.group(r, p.id!)))));
    router.add('DELETE', `${R}/groups/:id`, guard(async (ctx, p, r) => (await s.deleteGroup(r.realm, p.id!), noContent(ctx))));
    router.add('GET', `${R}/groups/:id/members`, guard((ctx, p, r) => sendJson(ctx.res, 200, r.users.filter((u) => u.groups.includes(s.group(r, p.id!).id)).map((u) => userRep(r, u)))));
    router.add('GET', `${R}/groups/:id/role-mappings/realm`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.group(r, p.id!).realmRoles.map((n) => roleRep(r, s.role(r, n))))));
    router.add('POST', `${R}/groups/:id/role-mappings/realm`, guard(async (ctx, p, r) => (await s.mapGroupRoles(r.realm, p.id!, await roleNames(ctx), true), noContent(ctx))));
    router.add('DELETE', `${R}/groups/:id/role-mappings/realm`, guard(async (ctx, p, r) => (await s.mapGroupRoles(r.realm, p.id!, await roleNames(ctx), false), noContent(ctx))));

    // roles
    router.add('GET', `${R}/roles`, guard((ctx, _p, r) => sendJson(ctx.res, 200, r.roles.map((x) => roleRep(r, x)))));
    router.add(
      'POST',
      `${R}/roles`,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const role = await s.createRole(r.realm, { name: String(b.name ?? ''), ...(typeof b.description === 'string' ? { description: b.description } : {}) });
        created(ctx, loc(ctx, `${A}/${r.realm}/roles/${encodeURIComponent(role.name)}`));
      }),
    );
    router.add('GET', `${R}/roles/:name`, guard((ctx, p, r) => sendJson(ctx.res, 200, roleRep(r, s.role(r, p.name!)))));
    router.add('DELETE', `${R}/roles/:name`, guard(async (ctx, p, r) => (await s.deleteRole(r.realm, p.name!), noContent(ctx))));

    // clients
    router.add(
      'GET',
      `${R}/clients`,
      guard((ctx, _p, r) => {
        const want = ctx.url.searchParams.get('clientId');
        sendJson(ctx.res, 200, r.clients.filter((c) => want === null || c.clientId === want).map(clientRep));
      }),
    );
    router.add(
      'POST',
      `${R}/clients`,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const c = b.protocol === 'saml' ? await s.createSamlClient(r.realm, samlClientFromRep(b)) : await s.createOidcClient(r.realm, oidcClientFromRep(b));
        created(ctx, loc(ctx, `${A}/${r.realm}/clients/${c.id}`));
      }),
    );
    // Loupe's shortcut: register a SAML SP (the cloud) straight from its metadata XML, with the cloud mappers.
    router.add(
      'POST',
      `${R}/clients/from-saml-metadata`,
      guard(async (ctx, _p, r) => {
        const b = await objectBody(ctx);
        const mappers = b.cloudMappers as { roleSessionName?: boolean; sessionDuration?: number | null } | undefined;
        const { client } = await engine.registerSamlClientFromMetadata(r.realm, {
          metadataXml: String(b.metadataXml ?? ''),
          urlName: String(b.urlName ?? ''),
          ...(typeof b.acsUrl === 'string' ? { acsUrl: b.acsUrl } : {}),
          ...(typeof b.name === 'string' ? { name: b.name } : {}),
          ...(typeof b.baseUrl === 'string' ? { baseUrl: b.baseUrl } : {}),
          ...(Array.isArray(b.scopeRealmRoles) ? { scopeRealmRoles: b.scopeRealmRoles as string[] } : {}),
          ...(mappers && typeof mappers === 'object' ? { cloudMappers: mappers } : {}),
          ...(typeof b.signResponse === 'boolean' ? { signResponse: b.signResponse } : {}),
          ...(typeof b.signAssertion === 'boolean' ? { signAssertion: b.signAssertion } : {}),
          ...(typeof b.assertionLifespan === 'number' ? { assertionLifespan: b.assertionLifespan } : {}),
        });
        created(ctx, loc(ctx, `${A}/${r.realm}/clients/${client.id}`), clientRep(client));
      }),
    );
    // Keycloak's import: SAML SP metadata XML in, a ClientRepresentation out (nothing created).
    router.add(
      'POST',
      `${R}/client-description-converter`,
      guard(async (ctx, _p, r) => {
        void r;
        const xml = (await readBody(ctx.req, 5 * 1024 * 1024)).toString('utf8');
        let md;
        try {
          md = parseSpMetadata(xml);
        } catch (err) {
          throw new IdpError(400, 'invalid_request', `Could not read the SAML metadata: ${(err as Error).message}`);
        }
        sendJson(ctx.res, 200, {
          clientId: md.entityId,
          protocol: 'saml',
          enabled: true,
          fullScopeAllowed: false,
          redirectUris: md.acsUrls,
          attributes: { saml_assertion_consumer_url_post: md.acsUrls[0], 'saml.assertion.signature': String(md.wantAssertionsSigned), 'saml.server.signature': 'true', 'saml.signature.algorithm': 'RSA_SHA256' },
        });
      }),
    );
    router.add('GET', `${R}/clients/:id`, guard((ctx, p, r) => sendJson(ctx.res, 200, clientRep(s.client(r, p.id!)))));
    router.add(
      'PUT',
      `${R}/clients/:id`,
      guard(async (ctx, p, r) => {
        const b = await objectBody(ctx);
        const c = s.client(r, p.id!);
        await s.updateClient(r.realm, c.id, clientPatchFromRep(c, b));
        noContent(ctx);
      }),
    );
    router.add('DELETE', `${R}/clients/:id`, guard(async (ctx, p, r) => (await s.deleteClient(r.realm, p.id!), noContent(ctx))));
    router.add(
      'GET',
      `${R}/clients/:id/client-secret`,
      guard((ctx, p, r) => {
        const c = s.client(r, p.id!);
        sendJson(ctx.res, 200, { type: 'secret', ...(c.protocol === 'openid-connect' && c.secret ? { value: c.secret } : {}) });
      }),
    );
    router.add('POST', `${R}/clients/:id/client-secret`, guard(async (ctx, p, r) => sendJson(ctx.res, 200, { type: 'secret', value: await s.regenerateSecret(r.realm, p.id!) })));
    router.add('GET', `${R}/clients/:id/protocol-mappers/models`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.client(r, p.id!).protocolMappers.map(mapperRep))));
    router.add(
      'POST',
      `${R}/clients/:id/protocol-mappers/models`,
      guard(async (ctx, p, r) => {
        const b = await objectBody(ctx);
        const m = await s.addMapper(r.realm, p.id!, {
          name: String(b.name ?? ''),
          protocol: b.protocol === 'openid-connect' ? 'openid-connect' : 'saml',
          protocolMapper: String(b.protocolMapper ?? ''),
          config: Object.fromEntries(Object.entries((b.config as Json) ?? {}).map(([k, v]) => [k, String(v)])),
        });
        created(ctx, loc(ctx, `${A}/${r.realm}/clients/${p.id}/protocol-mappers/models/${m.id}`));
      }),
    );
    router.add('DELETE', `${R}/clients/:id/protocol-mappers/models/:mid`, guard(async (ctx, p, r) => (await s.removeMapper(r.realm, p.id!, p.mid!), noContent(ctx))));
    router.add('GET', `${R}/clients/:id/scope-mappings/realm`, guard((ctx, p, r) => sendJson(ctx.res, 200, s.client(r, p.id!).scopeRealmRoles.map((n) => roleRep(r, s.role(r, n))))));
    router.add('POST', `${R}/clients/:id/scope-mappings/realm`, guard(async (ctx, p, r) => (await s.mapClientScopeRoles(r.realm, p.id!, await roleNames(ctx), true), noContent(ctx))));
    router.add('DELETE', `${R}/clients/:id/scope-mappings/realm`, guard(async (ctx, p, r) => (await s.mapClientScopeRoles(r.realm, p.id!, await roleNames(ctx), false), noContent(ctx))));

    // keys (Keycloak's KeysMetadataRepresentation) and Loupe's rotation
    router.add('GET', `${R}/keys`, guard((ctx) => sendJson(ctx.res, 200, keysMetadata(engine))));
    router.add(
      'POST',
      `${R}/keys/rotate`,
      guard(async (ctx, _p, r) => {
        const k = await engine.keys.rotate();
        sendJson(ctx.res, 200, { kid: k.kid, descriptor: `${realmUrl(ctx, prefix, r.realm)}/protocol/saml/descriptor`, ...keysMetadata(engine) });
      }),
    );
  }
}

export function keysMetadata(engine: IdpEngine): Json {
  const active = engine.keys.active;
  return {
    active: { RS256: active.kid },
    keys: engine.keys.published().map((k) => ({
      kid: k.kid,
      algorithm: 'RS256',
      type: 'RSA',
      use: 'SIG',
      status: k.retiredAt === undefined ? 'ACTIVE' : 'PASSIVE',
      certificate: certBase64(k.certPem),
      publicKey: k.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      createdAt: k.createdAt,
      ...(k.retiredAt !== undefined ? { retiredAt: k.retiredAt } : {}),
    })),
  };
}
