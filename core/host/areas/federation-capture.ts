/**
 * Host implementation of the SAML capture methods: open the IdP's SSO URL in the capture
 * browser (the desktop's Electron window when the host was given one, else Chromium through
 * playwright-core, visible where there is a display), stop the POST to the sign-in service and
 * return the assertion decoded, with its signature checked against the embedded token service's
 * provider for that issuer.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { CapturedAssertion, FederationIdpMethods, PasswordGrantResult } from '../contract/federation-idp.js';
import { TokenEndpointError } from '../../federation/credentials/token-client.js';
import { ClientSecrets } from '../../federation/credentials/client-secrets.js';
import type { IdpApi } from '../../federation/idp/api.js';
import type { StsApi } from '../../federation/sts/service.js';
import { DEFAULT_SIGNIN_PATTERNS } from '../../federation/capture/signin-patterns.js';
import { CaptureError, type CaptureResult, type SamlCapture } from '../../federation/capture/types.js';
import { prettyXml } from '../../federation/capture/pretty-xml.js';
import { decodeSamlResponse } from '../../federation/saml/post-body.js';
import { verifySamlResponse } from '../../federation/sts/saml/verify-response.js';
import { guard, realmUrl } from './federation-idp.js';

export type CaptureMethod = 'federation.capture' | 'federation.cancelCapture' | 'federation.captureEnvironment' | 'federation.oidcSignIn';

/** Captures under way, so the UI can cancel one. */
const running = new Map<string, AbortController>();

/** ACS URLs of the realm's SAML clients beyond AWS's own: an IdP set up for another sign-in endpoint. */
function configuredAcsUrls(rt: HostRuntime, realm: string | undefined): string[] {
  const api = rt.handle<IdpApi>('idp')?.api;
  if (!api || !realm) return [];
  try {
    return api
      .clients(realm)
      .filter((c) => c.protocol === 'saml')
      .flatMap((c) => (c.redirectUris as string[] | undefined) ?? [])
      .filter((u) => /^https?:\/\//.test(u));
  } catch {
    return [];
  }
}

async function playwrightCapture(): Promise<SamlCapture> {
  const { captureSamlWithPlaywright } = await import('../../federation/capture/playwright-capture.js');
  return captureSamlWithPlaywright;
}

/**
 * Checked here for the UI, by the embedded token service's own reader (off the event loop);
 * AssumeRoleWithSAML checks it again on every call, and finds this same response already read.
 */
async function checkSignature(rt: HostRuntime, issuer: string, xml: string): Promise<CapturedAssertion['signature']> {
  const sts = rt.handle<StsApi>('sts')?.api;
  if (!sts) return { status: 'unchecked', message: 'The token service is remote; it checks the signature when you get credentials.' };
  const provider = sts.engine.account().samlProviders.find((p) => p.entityId === issuer);
  if (!provider) return { status: 'unchecked', message: `The embedded token service has no SAML provider for the issuer ${issuer}; AssumeRoleWithSAML will refuse it.` };
  const reading = await sts.engine.readSamlResponse({ xml, certificates: provider.certificates, entityId: provider.entityId }).catch(() => undefined);
  if (reading?.ok) return { status: 'verified', message: `Signature valid (${reading.signedParts.join(' and ')}) with the certificate of ${provider.name}.`, provider: provider.arn };
  // Not read: the signature check alone, here, for its precise reason.
  try {
    const signed = verifySamlResponse(xml, provider.certificates);
    return { status: 'verified', message: `Signature valid (${signed.signedParts.join(' and ')}) with the certificate of ${provider.name}.`, provider: provider.arn };
  } catch (err) {
    return { status: 'failed', message: `Signature does not verify with the certificate of ${provider.name}: ${(err as Error).message}`, provider: provider.arn };
  }
}

async function toAssertion(rt: HostRuntime, captureId: string, r: CaptureResult): Promise<CapturedAssertion> {
  const s = r.summary;
  const xml = decodeSamlResponse(r.samlResponse);
  let pretty = xml;
  try {
    pretty = prettyXml(xml);
  } catch {
    // Shown as received when it cannot be indented; the summary above already read it.
  }
  return {
    captureId,
    issuer: s.issuer,
    subject: s.subject,
    ...(s.subjectFormat ? { subjectFormat: s.subjectFormat } : {}),
    ...(s.audience ? { audience: s.audience } : {}),
    ...(s.destination ? { destination: s.destination } : {}),
    ...(s.recipient ? { recipient: s.recipient } : {}),
    roles: s.roles,
    ...(s.roleSessionName ? { roleSessionName: s.roleSessionName } : {}),
    ...(s.sessionDuration !== undefined ? { sessionDuration: s.sessionDuration } : {}),
    ...(s.notBefore ? { notBefore: s.notBefore } : {}),
    ...(s.notOnOrAfter ? { notOnOrAfter: s.notOnOrAfter } : {}),
    ...(s.sessionNotOnOrAfter ? { sessionNotOnOrAfter: s.sessionNotOnOrAfter } : {}),
    ...(r.relayState !== undefined ? { relayState: r.relayState } : {}),
    acsUrl: r.acsUrl,
    responseSigned: s.responseSigned,
    assertionSigned: s.assertionSigned,
    attributes: s.attributes,
    samlResponse: r.samlResponse,
    xml: pretty,
    signature: await checkSignature(rt, s.issuer, xml),
  };
}

export const federationCaptureArea: AreaMethods<CaptureMethod & keyof FederationIdpMethods> = {
  'federation.captureEnvironment': {
    params: z.object({ realm: z.string().min(1).optional() }).strict(),
    summary: 'where a SAML capture runs here (Electron window or Chromium, visible or headless) and the sign-in URLs it stops',
    handler: async (p, rt) => {
      const { hasDisplay, cdpPortFromEnv } = await import('../../federation/capture/playwright-capture.js');
      const cdpPort = rt.samlCapture ? undefined : cdpPortFromEnv();
      return {
        kind: rt.samlCapture ? 'electron' : 'chromium',
        visible: rt.samlCapture ? true : hasDisplay(),
        ...(cdpPort ? { cdpPort } : {}),
        patterns: [...DEFAULT_SIGNIN_PATTERNS.map((r) => r.source), ...configuredAcsUrls(rt, p.realm).filter((u) => !DEFAULT_SIGNIN_PATTERNS.some((r) => r.test(u)))],
      };
    },
  },
  'federation.capture': {
    params: z
      .object({
        ssoUrl: z.string().url().optional(),
        realm: z.string().min(1).optional(),
        urlName: z.string().min(1).optional(),
        relayState: z.string().optional(),
        headless: z.boolean().optional(),
        timeoutSeconds: z.number().int().min(5).max(3600).optional(),
        extraPatterns: z.array(z.string().min(1)).optional(),
        ignoreHttpsErrors: z.boolean().optional(),
        captureId: z.string().min(1).max(100).optional(),
      })
      .strict()
      .refine((p) => p.ssoUrl !== undefined || (p.realm !== undefined && p.urlName !== undefined), { message: 'give ssoUrl, or realm and urlName' }),
    summary: 'open the IdP SSO URL in the capture browser, stop the SAML POST to the sign-in service and return the assertion',
    handler: async (p, rt) => {
      const captureId = p.captureId ?? randomUUID();
      if (running.has(captureId)) throw new HostCallError(`A capture with id ${captureId} is already running`);
      let ssoUrl = p.ssoUrl ?? `${realmUrl(rt, p.realm!).realmUrl}/protocol/saml/clients/${encodeURIComponent(p.urlName!)}`;
      if (p.relayState !== undefined) {
        const u = new URL(ssoUrl);
        u.searchParams.set('RelayState', p.relayState);
        ssoUrl = u.toString();
      }
      const api = rt.handle<IdpApi>('idp')?.api;
      const cloudDomain = p.realm && api ? guard(() => api.cloudDomain(p.realm!)) : undefined;
      const abort = new AbortController();
      running.set(captureId, abort);
      try {
        const { hasDisplay, cdpPortFromEnv } = await import('../../federation/capture/playwright-capture.js');
        const capture = rt.samlCapture ?? (await playwrightCapture());
        const cdpPort = rt.samlCapture ? undefined : cdpPortFromEnv();
        const r = await capture({
          ssoUrl,
          headless: p.headless ?? !hasDisplay(),
          timeoutMs: (p.timeoutSeconds ?? 300) * 1000,
          patterns: [...DEFAULT_SIGNIN_PATTERNS, ...configuredAcsUrls(rt, p.realm), ...(p.extraPatterns ?? [])],
          ...(p.ignoreHttpsErrors !== undefined ? { ignoreHttpsErrors: p.ignoreHttpsErrors } : {}),
          ...(cloudDomain ? { cloudDomain } : {}),
          ...(cdpPort ? { cdpPort } : {}),
          signal: abort.signal,
          onProgress: (e) => rt.emit('federation.capture.progress', { captureId, ...e }),
        });
        return await toAssertion(rt, captureId, r);
      } catch (err) {
        if (err instanceof CaptureError) throw new HostCallError(err.message, { code: err.code });
        throw err;
      } finally {
        running.delete(captureId);
      }
    },
  },
  'federation.oidcSignIn': {
    params: z
      .object({ realm: z.string().min(1), clientId: z.string().min(1), clientSecret: z.string().optional(), captureId: z.string().min(1).max(100).optional(), timeoutSeconds: z.number().int().min(5).max(3600).optional() })
      .strict(),
    summary: 'OIDC authorization code + PKCE in the capture browser with a loopback redirect; returns the tokens and decoded claims',
    handler: async (p, rt): Promise<PasswordGrantResult> => {
      const captureId = p.captureId ?? randomUUID();
      if (running.has(captureId)) throw new HostCallError(`A capture with id ${captureId} is already running`);
      const api = rt.handle<IdpApi>('idp')?.api;
      const { realmUrl: url } = realmUrl(rt, p.realm, true);
      const abort = new AbortController();
      running.set(captureId, abort);
      try {
        const { signInWithAuthorizationCode } = await import('../../federation/capture/oidc-code-flow.js');
        const { hasDisplay, cdpPortFromEnv } = await import('../../federation/capture/capture-browser.js');
        const cdpPort = cdpPortFromEnv();
        const clientSecret = p.clientSecret ?? new ClientSecrets(rt.dataDir, rt.secretCipher).get(p.clientId);
        const response = await signInWithAuthorizationCode({
          realmUrl: url,
          clientId: p.clientId,
          ...(clientSecret ? { clientSecret } : {}),
          headless: !hasDisplay(),
          timeoutMs: (p.timeoutSeconds ?? 300) * 1000,
          ...(cdpPort ? { cdpPort } : {}),
          // The embedded IdP's HTTPS certificate is self-signed: trust exactly that one.
          ...(api ? { caPem: api.tlsCertPem } : {}),
          signal: abort.signal,
          onProgress: (e) => rt.emit('federation.capture.progress', { captureId, ...e }),
        });
        return {
          tokenEndpoint: `${url}/protocol/openid-connect/token`,
          response,
          claims: decodeJwt(response.access_token) as Record<string, unknown>,
          header: decodeProtectedHeader(response.access_token) as Record<string, unknown>,
          ...(response.id_token ? { idTokenClaims: decodeJwt(response.id_token) as Record<string, unknown> } : {}),
        };
      } catch (err) {
        if (err instanceof CaptureError) throw new HostCallError(err.message, { code: err.code });
        if (err instanceof TokenEndpointError) throw new HostCallError(err.message, err.body, err.body ? 'failed' : 'unavailable');
        throw err;
      } finally {
        running.delete(captureId);
      }
    },
  },
  'federation.cancelCapture': {
    params: z.object({ captureId: z.string().min(1) }).strict(),
    summary: 'stop a running capture',
    handler: (p) => {
      const c = running.get(p.captureId);
      c?.abort();
      return { cancelled: c !== undefined };
    },
  },
};
