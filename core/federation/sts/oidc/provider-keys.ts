/**
 * An OIDC provider's signing keys, fetched from its discovery document and JWKS over pinned
 * HTTPS, cached, and fetched again when a token names a key id we have not seen (key rotation).
 */
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { pinnedGetJson } from './pinned-https.js';

export interface DiscoveryDocument {
  issuer: string;
  jwks_uri: string;
  [k: string]: unknown;
}

interface Entry {
  fetchedAt: number;
  issuer: string;
  jwks: JSONWebKeySet;
  keySet: ReturnType<typeof createLocalJWKSet>;
}

export async function fetchDiscovery(providerUrl: string, thumbprints: string[] | undefined): Promise<{ discovery: DiscoveryDocument; thumbprint: string }> {
  const base = providerUrl.replace(/\/+$/, '');
  const { json, thumbprint } = await pinnedGetJson<DiscoveryDocument>(`${base}/.well-known/openid-configuration`, thumbprints);
  if (typeof json.issuer !== 'string' || typeof json.jwks_uri !== 'string') throw new Error(`${base}: discovery document lacks issuer or jwks_uri`);
  return { discovery: json, thumbprint };
}

export class ProviderKeyCache {
  private entries = new Map<string, Entry>();
  constructor(private readonly maxAgeMs = 5 * 60_000) {}

  async keys(providerUrl: string, thumbprints: string[], now: number, forceRefresh = false): Promise<Entry> {
    const hit = this.entries.get(providerUrl);
    if (hit && !forceRefresh && now - hit.fetchedAt < this.maxAgeMs) return hit;
    const { discovery } = await fetchDiscovery(providerUrl, thumbprints);
    const { json: jwks } = await pinnedGetJson<JSONWebKeySet>(discovery.jwks_uri, thumbprints);
    if (!Array.isArray(jwks.keys)) throw new Error(`${discovery.jwks_uri}: not a JWK set`);
    const entry: Entry = { fetchedAt: now, issuer: discovery.issuer, jwks, keySet: createLocalJWKSet(jwks) };
    this.entries.set(providerUrl, entry);
    return entry;
  }

  forget(providerUrl: string): void {
    this.entries.delete(providerUrl);
  }
}
