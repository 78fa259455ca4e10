/**
 * An OIDC provider's signing keys, fetched from its discovery document and JWKS over pinned
 * HTTPS, cached, and fetched again when a token names a key id we have not seen (key rotation).
 *
 * That refetch is throttled per provider, as Keycloak's public-key cache throttles its own
 * (minTimeBetweenRequests, 10 s): at most one forced refetch per interval, concurrent fetches
 * shared, and a failed fetch remembered for the interval. A stream of tokens with made-up key
 * ids therefore costs the provider at most one request per interval, whatever its rate.
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

export const REFETCH_INTERVAL_MS = 10_000;

export class ProviderKeyCache {
  private entries = new Map<string, Entry>();
  private lastForced = new Map<string, number>();
  private failures = new Map<string, { at: number; error: Error }>();
  private inflight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly maxAgeMs = 5 * 60_000,
    private readonly refetchIntervalMs = REFETCH_INTERVAL_MS,
  ) {}

  async keys(providerUrl: string, thumbprints: string[], now: number, forceRefresh = false): Promise<Entry> {
    const hit = this.entries.get(providerUrl);
    if (hit && !forceRefresh && now - hit.fetchedAt < this.maxAgeMs) return hit;
    if (hit && forceRefresh) {
      const last = this.lastForced.get(providerUrl);
      if (last !== undefined && now - last < this.refetchIntervalMs) return hit;
      this.lastForced.set(providerUrl, now);
    }
    const failed = this.failures.get(providerUrl);
    if (failed && now - failed.at < this.refetchIntervalMs) throw failed.error;
    const running = this.inflight.get(providerUrl);
    if (running) return running;
    const fetching = this.fetch(providerUrl, thumbprints, now).finally(() => this.inflight.delete(providerUrl));
    this.inflight.set(providerUrl, fetching);
    return fetching;
  }

  forget(providerUrl: string): void {
    this.entries.delete(providerUrl);
    this.lastForced.delete(providerUrl);
    this.failures.delete(providerUrl);
  }

  private async fetch(providerUrl: string, thumbprints: string[], now: number): Promise<Entry> {
    try {
      const { discovery } = await fetchDiscovery(providerUrl, thumbprints);
      const { json: jwks } = await pinnedGetJson<JSONWebKeySet>(discovery.jwks_uri, thumbprints);
      if (!Array.isArray(jwks.keys)) throw new Error(`${discovery.jwks_uri}: not a JWK set`);
      const entry: Entry = { fetchedAt: now, issuer: discovery.issuer, jwks, keySet: createLocalJWKSet(jwks) };
      this.entries.set(providerUrl, entry);
      this.failures.delete(providerUrl);
      return entry;
    } catch (err) {
      this.failures.set(providerUrl, { at: now, error: err as Error });
      throw err;
    }
  }
}
