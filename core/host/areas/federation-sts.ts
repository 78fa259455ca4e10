/**
 * Host implementation of the federation STS-side contract methods (see ../contract/federation-sts.ts).
 * Token calls go through @aws-sdk/client-sts to `rt.urlOf('sts')`, so a real AWS STS works by
 * changing the base URL; account and session listings read the embedded STS in-process.
 */
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { AssumeRoleWithSAMLCommand, AssumeRoleWithWebIdentityCommand, GetCallerIdentityCommand, STSClient, type Credentials } from '@aws-sdk/client-sts';
import type { AreaMethods, HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { FederationStsMethods, StsAssumeResult, StsErrorDetail, StsRoleInfo } from '../contract/federation-sts.js';
import type { Params } from '../contract.js';
import type { StsApi } from '../../federation/sts/service.js';
import { AdminError } from '../../federation/sts/engine.js';
import type { OidcProvider, Role, SamlProvider } from '../../federation/sts/account/model.js';
import { credentialProcessJson, envLines, stsRegion, writeCredentialsProfile } from '../../federation/credentials/index.js';

export { stsRegion };

const noParams = z.object({}).strict() as unknown as z.ZodType<Record<string, never>>;
const credentials = z.object({ accessKeyId: z.string().min(16), secretAccessKey: z.string().min(1), sessionToken: z.string().min(1), expiration: z.string().min(1) }).strict();
const duration = z.number().int().min(900).max(43200).optional();

function embedded(rt: HostRuntime): StsApi {
  const api = rt.handle<StsApi>('sts')?.api;
  if (!api) throw new HostCallError('The embedded token service is not running (a remote STS has no account listing here; use IAM).', undefined, 'unavailable');
  return api;
}

/** Unsigned calls (AssumeRoleWith*) need no credentials; the SDK still wants some configured. */
function client(rt: HostRuntime, creds?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): STSClient {
  return new STSClient({
    region: stsRegion(rt.urlOf('sts')),
    endpoint: rt.urlOf('sts'),
    maxAttempts: 1,
    credentials: creds ?? { accessKeyId: 'AKIDLOUPEUNSIGNED000', secretAccessKey: 'unsigned-call' },
  });
}

/** SDK failures reach the UI with STS's own code and message. */
async function viaSdk<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as Error & { Code?: string; Type?: string; $metadata?: { httpStatusCode?: number; requestId?: string } };
    if (e.$metadata) {
      const detail: StsErrorDetail = { Code: e.Code ?? e.name, Message: e.message, Type: e.Type, httpStatusCode: e.$metadata.httpStatusCode, requestId: e.$metadata.requestId };
      throw new HostCallError(`${detail.Code}: ${e.message}`, detail);
    }
    throw new HostCallError(`The token service at the configured URL could not be reached: ${e.message}`, undefined, 'unavailable');
  }
}

function toResult(c: Credentials | undefined, user: { Arn?: string; AssumedRoleId?: string } | undefined, requestId: string | undefined): StsAssumeResult {
  if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration) throw new HostCallError('The token service answered without credentials');
  return {
    credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration.toISOString().replace('.000Z', 'Z') },
    assumedRoleUser: { arn: user?.Arn ?? '', assumedRoleId: user?.AssumedRoleId ?? '' },
    ...(requestId ? { requestId } : {}),
  };
}

const defined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function trustedProviders(policy: unknown): StsRoleInfo['trustedProviders'] {
  const out: StsRoleInfo['trustedProviders'] = [];
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as string[];
  for (const st of ((policy as { Statement?: unknown[] })?.Statement ?? []) as { Effect?: string; Principal?: { Federated?: unknown }; Action?: unknown }[]) {
    if (st.Effect !== 'Allow') continue;
    for (const p of list(st.Principal?.Federated)) for (const a of list(st.Action)) out.push({ providerArn: p, action: a });
  }
  return out;
}

const samlInfo = (p: SamlProvider) => ({
  arn: p.arn,
  name: p.name,
  entityId: p.entityId,
  certificateFingerprints: p.certificates.map((c) => new X509Certificate(c).fingerprint256),
  createDate: p.createDate,
  ...(p.validUntil ? { validUntil: p.validUntil } : {}),
});
const oidcInfo = (p: OidcProvider) => ({ arn: p.arn, url: p.url, clientIds: p.clientIds, thumbprints: p.thumbprints, createDate: p.createDate });
const roleInfo = (r: Role): StsRoleInfo => ({
  arn: r.arn,
  name: r.name,
  roleId: r.roleId,
  maxSessionDuration: r.maxSessionDuration,
  ...(r.description ? { description: r.description } : {}),
  trustPolicy: r.trustPolicy,
  trustedProviders: trustedProviders(r.trustPolicy),
  createDate: r.createDate,
});

/** Account errors reach the UI with IAM's error code as detail. */
async function admin<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AdminError) throw new HostCallError(err.message, { Code: err.code, Message: err.message, httpStatusCode: err.status });
    throw err;
  }
}

export const federationStsArea: AreaMethods<keyof FederationStsMethods & string> = {
  'federation.stsAccount': {
    params: noParams,
    summary: 'the embedded token service account: SAML and OIDC providers, roles with trust and maximum session, demo-seed state',
    handler: (_p, rt) => {
      const { engine, seeder } = embedded(rt);
      const a = engine.account();
      const seed = seeder.status();
      const endpoint = rt.urlOf('sts').replace(/\/+$/, '');
      return {
        accountId: a.accountId,
        endpoint,
        signinMetadataUrl: `${endpoint}/saml-metadata.xml`,
        samlProviders: a.samlProviders.map(samlInfo),
        oidcProviders: a.oidcProviders.map(oidcInfo),
        roles: a.roles.map(roleInfo),
        seedPending: seed.pending,
        seedErrors: seed.lastError,
      };
    },
  },

  'federation.assumeRoleWithSaml': {
    params: z.object({ samlResponse: z.string().min(4), roleArn: z.string().min(20), principalArn: z.string().min(20), durationSeconds: duration }).strict(),
    summary: 'AssumeRoleWithSAML with a captured SAMLResponse, through @aws-sdk/client-sts at the STS URL',
    handler: async (p, rt) => {
      const out = await viaSdk(() =>
        client(rt).send(new AssumeRoleWithSAMLCommand({ SAMLAssertion: p.samlResponse, RoleArn: p.roleArn, PrincipalArn: p.principalArn, ...(p.durationSeconds ? { DurationSeconds: p.durationSeconds } : {}) })),
      );
      return defined({
        ...toResult(out.Credentials, out.AssumedRoleUser, out.$metadata.requestId),
        subject: out.Subject,
        subjectType: out.SubjectType,
        issuer: out.Issuer,
        audience: out.Audience,
        nameQualifier: out.NameQualifier,
      });
    },
  },

  'federation.assumeRoleWithWebIdentity': {
    params: z
      .object({ webIdentityToken: z.string().min(4), roleArn: z.string().min(20), roleSessionName: z.string().min(2).max(64), durationSeconds: duration, providerId: z.string().optional() })
      .strict(),
    summary: 'AssumeRoleWithWebIdentity with an access token, through @aws-sdk/client-sts at the STS URL',
    handler: async (p, rt) => {
      const out = await viaSdk(() =>
        client(rt).send(
          new AssumeRoleWithWebIdentityCommand({
            WebIdentityToken: p.webIdentityToken,
            RoleArn: p.roleArn,
            RoleSessionName: p.roleSessionName,
            ...(p.durationSeconds ? { DurationSeconds: p.durationSeconds } : {}),
            ...(p.providerId ? { ProviderId: p.providerId } : {}),
          }),
        ),
      );
      return defined({
        ...toResult(out.Credentials, out.AssumedRoleUser, out.$metadata.requestId),
        subjectFromWebIdentityToken: out.SubjectFromWebIdentityToken,
        provider: out.Provider,
        audience: out.Audience,
      });
    },
  },

  'federation.callerIdentity': {
    params: z.object({ credentials }).strict(),
    summary: 'GetCallerIdentity signed (SigV4) with temporary credentials: proves they work',
    handler: async (p, rt) => {
      const c = p.credentials;
      const out = await viaSdk(() => client(rt, { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken }).send(new GetCallerIdentityCommand({})));
      return { arn: out.Arn ?? '', userId: out.UserId ?? '', account: out.Account ?? '' };
    },
  },

  'federation.writeCredentials': {
    params: z
      .object({
        credentials,
        target: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('profile'), profile: z.string().regex(/^[A-Za-z0-9_.@+-]{1,64}$/), file: z.string().min(1).optional(), region: z.string().optional() }).strict(),
          z.object({ kind: z.literal('credential_process') }).strict(),
          z.object({ kind: z.literal('env'), shell: z.enum(['sh', 'fish', 'powershell']).optional() }).strict(),
        ]),
      })
      .strict(),
    summary: 'write temporary credentials: an ~/.aws/credentials profile (0600), credential_process JSON, or env export lines',
    handler: async (p) => {
      const t = p.target;
      if (t.kind === 'profile') {
        const file = t.file ?? process.env.AWS_SHARED_CREDENTIALS_FILE ?? path.join(os.homedir(), '.aws', 'credentials');
        await writeCredentialsProfile({ file, profile: t.profile, credentials: p.credentials, ...(t.region ? { region: t.region } : {}) });
        return { file };
      }
      if (t.kind === 'credential_process') return { text: credentialProcessJson(p.credentials) };
      return { text: envLines(p.credentials, t.shell ?? 'sh').join('\n') + '\n' };
    },
  },

  'federation.stsSessions': {
    params: noParams,
    summary: 'sessions the embedded token service issued, newest first, with expiry',
    handler: (_p, rt) => {
      const now = Date.now();
      return embedded(rt)
        .engine.sessions()
        .map((s) => {
          const left = Math.max(0, Math.floor((Date.parse(s.expiration) - now) / 1000));
          return { ...s, expired: left === 0, remainingSeconds: left };
        });
    },
  },

  'federation.stsCreateSamlProvider': {
    params: z
      .object({ name: z.string().min(1).max(128), metadataXml: z.string().min(1).optional(), metadataUrl: z.string().url().optional(), replace: z.boolean().optional() })
      .strict()
      .refine((p) => (p.metadataXml === undefined) !== (p.metadataUrl === undefined), 'give exactly one of metadataXml and metadataUrl'),
    summary: 'create a SAML provider from IdP metadata (the document, or its URL such as a realm descriptor)',
    handler: async (p, rt) => {
      const { engine } = embedded(rt);
      let xml = p.metadataXml;
      if (p.metadataUrl) {
        const res = await fetch(p.metadataUrl, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => {
          throw new HostCallError(`Could not download the metadata from ${p.metadataUrl}: ${err.message}`);
        });
        if (!res.ok) throw new HostCallError(`Could not download the metadata from ${p.metadataUrl}: HTTP ${res.status}`);
        xml = await res.text();
      }
      return samlInfo(await admin(() => engine.createSamlProvider(p.name, xml!, { replace: p.replace === true })));
    },
  },

  'federation.stsCreateOidcProvider': {
    params: z.object({ url: z.string().url(), clientIds: z.array(z.string().min(1)), thumbprints: z.array(z.string().regex(/^[0-9a-fA-F]{40}$/)).optional(), replace: z.boolean().optional() }).strict(),
    summary: 'create an OIDC provider from an https Provider URL (discovery and JWKS fetched over thumbprint-pinned HTTPS)',
    handler: async (p, rt) => oidcInfo(await admin(() => embedded(rt).engine.createOidcProvider(p.url, p.clientIds, p.thumbprints, { replace: p.replace === true }))),
  },

  'federation.stsCreateRole': {
    params: z
      .object({ name: z.string().min(1).max(64), trustPolicy: z.unknown(), maxSessionDuration: z.number().int().min(3600).max(43200).optional(), description: z.string().optional(), replace: z.boolean().optional() })
      .strict() as unknown as z.ZodType<Params<'federation.stsCreateRole'>>,
    summary: 'create a role with a trust policy (SAML or web identity federation) and a maximum session duration',
    handler: async (p, rt) => roleInfo(await admin(() => embedded(rt).engine.createRole(p, { replace: p.replace === true }))),
  },

  'federation.stsDelete': {
    params: z.object({ kind: z.enum(['samlProvider', 'oidcProvider', 'role']), arn: z.string().min(20) }).strict(),
    summary: 'delete a SAML provider, OIDC provider or role of the embedded account',
    handler: async (p, rt) => {
      const { engine } = embedded(rt);
      await admin(() => (p.kind === 'samlProvider' ? engine.deleteSamlProvider(p.arn) : p.kind === 'oidcProvider' ? engine.deleteOidcProvider(p.arn) : engine.deleteRole(p.arn)));
      return { deleted: p.arn };
    },
  },
};
