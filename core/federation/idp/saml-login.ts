/**
 * Turns a logged-in user + SAML client + ACS into the signed SAMLResponse the browser will POST.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import type { KeyStore } from '../oidc/keys.js';
import { buildSamlResponse } from '../saml/response.js';
import { signSamlResponse } from '../saml/sign.js';
import type { RealmStore } from './store.js';
import type { UserSession } from './sessions.js';
import type { RealmRecord, SamlClientRecord, UserRecord } from './model.js';
import { evaluateMappers } from './saml-mappers.js';

export interface SamlLoginDeps {
  store: RealmStore;
  keys: KeyStore;
  clock: Clock;
}

export interface SamlPostForm {
  acsUrl: string;
  samlResponse: string;
  relayState?: string;
  responseId: string;
  assertionId: string;
}

export function nameIdFor(client: SamlClientRecord, user: UserRecord): string {
  switch (client.nameIdFormat) {
    case 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress':
      return user.email ?? user.username;
    case 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient':
      return `G-${randomUUID()}`;
    case 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent': {
      // Stable per user and client, opaque, like Keycloak's "G-" persistent ids.
      const h = createHash('sha256').update(`${user.id}|${client.id}`).digest('hex');
      return `G-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    }
    default:
      return user.username;
  }
}

export function buildSignedLogin(
  deps: SamlLoginDeps,
  realm: RealmRecord,
  client: SamlClientRecord,
  user: UserRecord,
  session: UserSession,
  input: { issuer: string; acsUrl: string; relayState?: string; inResponseTo?: string },
): SamlPostForm {
  const now = deps.clock.now();
  const roles = deps.store.effectiveRoles(realm, user, client);
  const built = buildSamlResponse({
    issuer: input.issuer,
    destination: input.acsUrl,
    audience: client.clientId,
    nameId: nameIdFor(client, user),
    nameIdFormat: client.nameIdFormat,
    now,
    lifespanSeconds: client.assertionLifespan ?? realm.accessCodeLifespan,
    sessionIndex: `${session.id}::${client.id}`,
    authnInstant: session.started,
    sessionNotOnOrAfter: session.started + realm.ssoSessionMaxLifespan * 1000,
    attributes: evaluateMappers(client, user, roles),
    ...(input.inResponseTo ? { inResponseTo: input.inResponseTo } : {}),
  });
  const key = deps.keys.active;
  const privateKeyPem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const signed = signSamlResponse(built.xml, { privateKeyPem, certPem: key.certPem }, { assertion: client.signAssertion, response: client.signResponse });
  return {
    acsUrl: input.acsUrl,
    samlResponse: Buffer.from(signed, 'utf8').toString('base64'),
    ...(input.relayState !== undefined ? { relayState: input.relayState } : {}),
    responseId: built.responseId,
    assertionId: built.assertionId,
  };
}
