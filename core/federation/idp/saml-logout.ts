/**
 * SP-initiated SAML single logout (SAML 2.0 Profiles 4.4): the sessions a LogoutRequest names
 * (by SessionIndex, as this IdP wrote them into the assertion) end, and the SP gets a signed
 * LogoutResponse at its logout service (HTTP-POST binding).
 */
import { randomUUID } from 'node:crypto';
import type { KeyStore } from '../oidc/keys.js';
import type { Clock } from '../../common/clock.js';
import { escapeXml as e } from '../saml/xml.js';
import { signSamlMessage } from '../saml/sign.js';
import type { SessionStore } from './sessions.js';

export interface LogoutDeps {
  keys: KeyStore;
  sessions: SessionStore;
  clock: Clock;
}

/** Ends the sessions the request's SessionIndexes name for `clientId` (SessionIndex is `${session}::${client}`), and `cookieSession` if given. */
export function endLoggedOutSessions(deps: LogoutDeps, clientId: string, sessionIndexes: string[], cookieSession?: string): void {
  for (const index of sessionIndexes) {
    const [sid, client] = index.split('::');
    if (sid && client === clientId) deps.sessions.remove(sid);
  }
  if (cookieSession) deps.sessions.remove(cookieSession);
}

/** A signed LogoutResponse (Success) in response to `inResponseTo`, base64 for the POST binding. */
export function signedLogoutResponse(deps: LogoutDeps, input: { issuer: string; destination: string; inResponseTo: string }): string {
  const xml =
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="ID_${randomUUID()}" Version="2.0"` +
    ` IssueInstant="${new Date(deps.clock.now()).toISOString()}" Destination="${e(input.destination)}" InResponseTo="${e(input.inResponseTo)}">` +
    `<saml:Issuer>${e(input.issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
  const key = deps.keys.active;
  const signed = signSamlMessage(xml, 'LogoutResponse', { privateKeyPem: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certPem: key.certPem });
  return Buffer.from(signed, 'utf8').toString('base64');
}
