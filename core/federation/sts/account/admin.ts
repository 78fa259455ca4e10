/** Creating and deleting the account's IAM objects (what IAM's API does for providers and roles). */
import type { StsContext } from '../context.js';
import { fetchDiscovery } from '../oidc/provider-keys.js';
import { iso } from '../time.js';
import { newRoleId } from '../auth/issue-credentials.js';
import { oidcProviderArn, PROVIDER_NAME, ROLE_NAME, roleArn as makeRoleArn, samlProviderArn, type OidcProvider, type PolicyDocument, type Role, type SamlProvider } from './model.js';
import { MetadataError, parseIdpMetadata } from './saml-metadata.js';
import { validatePolicy } from './trust-policy.js';

export class AdminError extends Error {
  constructor(
    readonly code: 'EntityAlreadyExists' | 'NoSuchEntity' | 'InvalidInput' | 'MalformedPolicyDocument' | 'ProviderUnreachable',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function createSamlProvider(ctx: StsContext, name: string, metadataXml: string, opts: { replace?: boolean } = {}): Promise<SamlProvider> {
  if (!PROVIDER_NAME.test(name)) throw new AdminError('InvalidInput', `Provider name must match ${PROVIDER_NAME.source}`, 400);
  const arn = samlProviderArn(ctx.options.accountId, name);
  if (!opts.replace && ctx.store.samlProvider(arn)) throw new AdminError('EntityAlreadyExists', `SAMLProvider ${name} already exists.`, 409);
  let meta;
  try {
    meta = parseIdpMetadata(metadataXml);
  } catch (err) {
    throw new AdminError('InvalidInput', err instanceof MetadataError ? err.message : 'Could not parse metadata', 400);
  }
  const provider: SamlProvider = { arn, name, entityId: meta.entityId, certificates: meta.certificates, metadataXml, createDate: iso(ctx.now()), validUntil: meta.validUntil };
  await ctx.store.putSamlProvider(provider);
  return provider;
}

export async function createOidcProvider(ctx: StsContext, url: string, clientIds: string[], thumbprints?: string[], opts: { replace?: boolean } = {}): Promise<OidcProvider> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AdminError('InvalidInput', `Invalid provider URL: ${url}`, 400);
  }
  if (u.protocol !== 'https:') throw new AdminError('InvalidInput', 'The Provider URL must begin with https://', 400);
  if (thumbprints?.some((t) => !/^[0-9a-fA-F]{40}$/.test(t))) throw new AdminError('InvalidInput', 'Each thumbprint must be 40 hexadecimal characters (SHA-1)', 400);
  const clean = url.replace(/\/+$/, '');
  const arn = oidcProviderArn(ctx.options.accountId, clean);
  if (!opts.replace && ctx.store.oidcProvider(arn)) throw new AdminError('EntityAlreadyExists', `Provider with url ${clean} already exists.`, 409);
  let found;
  try {
    found = await fetchDiscovery(clean, thumbprints && thumbprints.length ? thumbprints : undefined);
  } catch (err) {
    throw new AdminError('ProviderUnreachable', `Could not read ${clean}/.well-known/openid-configuration: ${(err as Error).message}`, 400);
  }
  if (found.discovery.issuer.replace(/\/+$/, '') !== clean) {
    throw new AdminError('InvalidInput', `The discovery document's issuer ${found.discovery.issuer} differs from the Provider URL ${clean}`, 400);
  }
  const provider: OidcProvider = {
    arn,
    url: clean,
    clientIds: [...new Set(clientIds)],
    // Like IAM today, an empty list means "use the thumbprint the server presents now".
    thumbprints: thumbprints && thumbprints.length ? thumbprints.map((t) => t.toLowerCase()) : [found.thumbprint],
    createDate: iso(ctx.now()),
  };
  ctx.keys.forget(clean);
  await ctx.store.putOidcProvider(provider);
  return provider;
}

export async function createRole(ctx: StsContext, input: { name: string; trustPolicy: unknown; maxSessionDuration?: number; description?: string }, opts: { replace?: boolean } = {}): Promise<Role> {
  if (!ROLE_NAME.test(input.name)) throw new AdminError('InvalidInput', `Role name must match ${ROLE_NAME.source}`, 400);
  const max = input.maxSessionDuration ?? 3600;
  if (!Number.isInteger(max) || max < 3600 || max > 43200) throw new AdminError('InvalidInput', 'MaxSessionDuration must be an integer from 3600 to 43200', 400);
  let policy: PolicyDocument;
  try {
    policy = validatePolicy(typeof input.trustPolicy === 'string' ? JSON.parse(input.trustPolicy) : input.trustPolicy);
  } catch (err) {
    throw new AdminError('MalformedPolicyDocument', (err as Error).message, 400);
  }
  const arn = makeRoleArn(ctx.options.accountId, input.name);
  const existing = ctx.store.role(arn);
  if (existing && !opts.replace) throw new AdminError('EntityAlreadyExists', `Role with name ${input.name} already exists.`, 409);
  const role: Role = { arn, name: input.name, roleId: existing?.roleId ?? newRoleId(), trustPolicy: policy, maxSessionDuration: max, description: input.description, createDate: existing?.createDate ?? iso(ctx.now()) };
  await ctx.store.putRole(role);
  return role;
}

export async function deleteSamlProvider(ctx: StsContext, arn: string): Promise<void> {
  if (!(await ctx.store.deleteSamlProvider(arn))) throw new AdminError('NoSuchEntity', `SAMLProvider ${arn} does not exist.`, 404);
}
export async function deleteOidcProvider(ctx: StsContext, arn: string): Promise<void> {
  if (!(await ctx.store.deleteOidcProvider(arn))) throw new AdminError('NoSuchEntity', `OpenIDConnect Provider ${arn} does not exist.`, 404);
}
export async function deleteRole(ctx: StsContext, arn: string): Promise<void> {
  if (!(await ctx.store.deleteRole(arn))) throw new AdminError('NoSuchEntity', `The role with name ${arn.split('/').pop()} cannot be found.`, 404);
}
