/**
 * Host implementation of the federation IDP-side contract methods (see ../contract/federation-idp.ts).
 * Listing reads the embedded IdP in-process; URLs, the password grant and the capture go over
 * the wire to `rt.urlOf('idp')`, so they work the same against a real Keycloak.
 */
import { z } from 'zod';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { CaptureMethod } from './federation-capture.js';
import type { FederationIdpMethods, IdpClientInfo, IdpMapperInfo, IdpUrlsInfo, PasswordGrantResult } from '../contract/federation-idp.js';
import type { IdpApi } from '../../federation/idp/api.js';
import { IdpError } from '../../federation/idp/model.js';
import { requestToken, TokenEndpointError } from '../../federation/credentials/token-client.js';
import { ClientSecrets } from '../../federation/credentials/client-secrets.js';

const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;
const realmParam = z.object({ realm: z.string().min(1) }).strict();

function embedded(rt: HostRuntime): IdpApi {
  const api = rt.handle<IdpApi>('idp')?.api;
  if (!api) throw new HostCallError('The embedded identity provider is not running (or the IdP is remote; its admin data is read through Keycloak’s admin console).', undefined, 'unavailable');
  return api;
}

/** Engine errors reach the UI with Keycloak's admin error body as detail. */
export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof IdpError) throw new HostCallError(err.description, err.status === 404 ? { error: err.description } : { errorMessage: err.description });
    throw err;
  }
}

export function realmUrl(rt: HostRuntime, realm: string, https?: boolean): { base: string; realmUrl: string; httpsBase?: string } {
  const api = rt.handle<IdpApi>('idp')?.api;
  const base = (https && api ? api.httpsUrl : rt.urlOf('idp')).replace(/\/+$/, '');
  return { base, realmUrl: `${base}/realms/${encodeURIComponent(realm)}`, ...(api ? { httpsBase: api.httpsUrl } : {}) };
}

function toClientInfo(c: Record<string, unknown>, ssoBase: string): IdpClientInfo {
  const attrs = (c.attributes as Record<string, string> | undefined) ?? {};
  const saml = c.protocol === 'saml';
  const urlName = attrs.saml_idp_initiated_sso_url_name;
  return {
    id: String(c.id),
    clientId: String(c.clientId),
    protocol: saml ? 'saml' : 'openid-connect',
    ...(typeof c.name === 'string' ? { name: c.name } : {}),
    enabled: c.enabled === true,
    fullScopeAllowed: c.fullScopeAllowed === true,
    scopeRealmRoles: (c.scopeRealmRoles as string[]) ?? [],
    mappers: (c.protocolMappers as IdpMapperInfo[]) ?? [],
    ...(typeof c.baseUrl === 'string' ? { baseUrl: c.baseUrl } : {}),
    ...(saml
      ? {
          ...(urlName ? { urlName, ssoUrl: `${ssoBase}/protocol/saml/clients/${encodeURIComponent(urlName)}` } : {}),
          acsUrls: (c.redirectUris as string[]) ?? [],
          signResponse: attrs['saml.server.signature'] === 'true',
          signAssertion: attrs['saml.assertion.signature'] === 'true',
          ...(attrs['saml.assertion.lifespan'] ? { assertionLifespan: Number(attrs['saml.assertion.lifespan']) } : {}),
        }
      : {
          publicClient: c.publicClient === true,
          directAccessGrantsEnabled: c.directAccessGrantsEnabled === true,
          serviceAccountsEnabled: c.serviceAccountsEnabled === true,
          hasSecret: typeof c.secret === 'string',
        }),
  };
}

export const federationIdpArea: AreaMethods<Exclude<keyof FederationIdpMethods & string, CaptureMethod>> = {
  'federation.realms': {
    params: noParams,
    summary: 'realms of the embedded identity provider with their lifespans and counts',
    handler: (_p, rt) =>
      guard(() =>
        embedded(rt).realms().map((r) => {
          const attrs = (r.attributes as Record<string, string>) ?? {};
          return {
            realm: String(r.realm),
            ...(typeof r.displayName === 'string' ? { displayName: r.displayName } : {}),
            enabled: r.enabled === true,
            cloudDomain: attrs.cloudDomain ?? 'https://aws.amazon.com',
            accessTokenLifespan: Number(r.accessTokenLifespan),
            accessCodeLifespan: Number(r.accessCodeLifespan),
            ssoSessionIdleTimeout: Number(r.ssoSessionIdleTimeout),
            ssoSessionMaxLifespan: Number(r.ssoSessionMaxLifespan),
            counts: r.counts as { users: number; groups: number; roles: number; clients: number },
          };
        }),
      ),
  },
  'federation.users': {
    params: realmParam,
    summary: "a realm's users with their direct, group and effective roles",
    handler: (p, rt) =>
      guard(() =>
        embedded(rt).users(p.realm).map((u) => ({
          id: String(u.id),
          username: String(u.username),
          enabled: u.enabled === true,
          ...(typeof u.email === 'string' ? { email: u.email } : {}),
          ...(typeof u.firstName === 'string' ? { firstName: u.firstName } : {}),
          ...(typeof u.lastName === 'string' ? { lastName: u.lastName } : {}),
          groups: u.groups as string[],
          realmRoles: u.realmRoles as string[],
          effectiveRoles: u.effectiveRoles as string[],
          hasPassword: u.hasPassword === true,
        })),
      ),
  },
  'federation.groups': {
    params: realmParam,
    summary: "a realm's groups and their roles",
    handler: (p, rt) => guard(() => embedded(rt).groups(p.realm).map((g) => ({ id: String(g.id), name: String(g.name), path: String(g.path), realmRoles: g.realmRoles as string[] }))),
  },
  'federation.roles': {
    params: realmParam,
    summary: "a realm's roles (for a cloud: role_arn,provider_arn)",
    handler: (p, rt) => guard(() => embedded(rt).roles(p.realm).map((r) => ({ id: String(r.id), name: String(r.name), ...(typeof r.description === 'string' ? { description: r.description } : {}) }))),
  },
  'federation.clients': {
    params: realmParam,
    summary: "a realm's SAML and OIDC clients with SSO URLs, ACS URLs, signing and mappers",
    handler: (p, rt) => guard(() => embedded(rt).clients(p.realm).map((c) => toClientInfo(c, realmUrl(rt, p.realm).realmUrl))),
  },
  'federation.mappers': {
    params: z.object({ realm: z.string().min(1), client: z.string().min(1) }).strict(),
    summary: "a client's protocol mappers (by internal id or clientId)",
    handler: (p, rt) => guard(() => embedded(rt).mappers(p.realm, p.client) as unknown as IdpMapperInfo[]),
  },
  'federation.idpUrls': {
    params: z.object({ realm: z.string().min(1), https: z.boolean().optional() }).strict(),
    summary: 'discovery, JWKS, token, SAML descriptor and SSO URLs of a realm',
    handler: (p, rt): IdpUrlsInfo => {
      const { base, realmUrl: url, httpsBase } = realmUrl(rt, p.realm, p.https);
      const api = rt.handle<IdpApi>('idp')?.api;
      const sso = api ? guard(() => api.urls(p.realm, p.https ? { https: true } : {}).sso) : [];
      return {
        base,
        ...(httpsBase ? { httpsBase } : {}),
        realmUrl: url,
        discovery: `${url}/.well-known/openid-configuration`,
        certs: `${url}/protocol/openid-connect/certs`,
        token: `${url}/protocol/openid-connect/token`,
        descriptor: `${url}/protocol/saml/descriptor`,
        samlEndpoint: `${url}/protocol/saml`,
        sso,
        ...(api ? { adminPasswordFile: api.adminPasswordFile } : {}),
      };
    },
  },
  'federation.passwordGrant': {
    params: z
      .object({
        realm: z.string().min(1),
        clientId: z.string().min(1),
        clientSecret: z.string().optional(),
        username: z.string().min(1),
        password: z.string(),
        scope: z.string().optional(),
        https: z.boolean().optional(),
      })
      .strict(),
    summary: 'OIDC password grant at the IdP token endpoint; returns the token response and decoded claims',
    handler: async (p, rt): Promise<PasswordGrantResult> => {
      const api = rt.handle<IdpApi>('idp')?.api;
      const tokenEndpoint = `${realmUrl(rt, p.realm, p.https).realmUrl}/protocol/openid-connect/token`;
      const form: Record<string, string> = { grant_type: 'password', client_id: p.clientId, username: p.username, password: p.password };
      // A secret typed now wins; else the one the desktop keeps encrypted for this client, if any.
      const clientSecret = p.clientSecret ?? new ClientSecrets(rt.dataDir, rt.secretCipher).get(p.clientId);
      if (clientSecret !== undefined) form.client_secret = clientSecret;
      if (p.scope) form.scope = p.scope;
      let response: PasswordGrantResult['response'];
      try {
        // The embedded IdP's HTTPS certificate is self-signed: trust exactly that one.
        response = await requestToken(tokenEndpoint, form, p.https && api ? api.tlsCertPem : undefined);
      } catch (err) {
        if (err instanceof TokenEndpointError) throw new HostCallError(err.message, err.body, err.body ? 'failed' : 'unavailable');
        throw err;
      }
      return {
        tokenEndpoint,
        response,
        claims: decodeJwt(response.access_token) as Record<string, unknown>,
        header: decodeProtectedHeader(response.access_token) as Record<string, unknown>,
        ...(response.id_token ? { idTokenClaims: decodeJwt(response.id_token) as Record<string, unknown> } : {}),
      };
    },
  },
};
