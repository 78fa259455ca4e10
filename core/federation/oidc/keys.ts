/**
 * The IdP's signing keys: one active RSA key (with its self-signed certificate) signs JWTs and
 * SAML documents. Rotation makes a new key active and keeps the old ones, public part in the
 * JWKS, until every token they signed has expired. Private keys live in 0600 files.
 */
import { createPrivateKey, createPublicKey, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic, writeJsonAtomic, readJsonOrBackup } from '../../common/json-store.js';
import type { Clock } from '../../common/clock.js';
import { randomToken } from '../../common/ids.js';
import { generateKeyAndCert, certThumbprint, certBase64 } from './certificates.js';

export interface SigningKey {
  kid: string;
  certPem: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  createdAt: number;
  /** When another key took over; undefined for the active key. */
  retiredAt?: number;
}

interface KeyIndexEntry {
  kid: string;
  createdAt: number;
  retiredAt?: number;
}

export interface Jwk {
  kid: string;
  kty: 'RSA';
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
  x5c: string[];
  x5t: string;
  'x5t#S256': string;
}

/** The realm HMAC key (Keycloak's hmac-generated, HS512): signs refresh tokens, which no JWKS publishes. */
export interface HmacKey {
  kid: string;
  secret: KeyObject;
}

export class KeyStore {
  private keys: SigningKey[] = [];
  private hmacKey: HmacKey | undefined;

  private constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    /** How long a retired key stays published: the longest lifetime of anything it signed. */
    private readonly retainSeconds: number,
  ) {}

  static async open(dir: string, clock: Clock, retainSeconds: number): Promise<KeyStore> {
    const store = new KeyStore(dir, clock, retainSeconds);
    const index = readJsonOrBackup<KeyIndexEntry[]>(path.join(dir, 'keys.json'), (raw) => {
      if (!Array.isArray(raw)) throw new Error('keys.json is not a list');
      return raw as KeyIndexEntry[];
    });
    if (index.kind === 'ok') {
      for (const e of index.value) {
        const keyFile = path.join(dir, `${e.kid}.key.pem`);
        const certFile = path.join(dir, `${e.kid}.cert.pem`);
        if (!existsSync(keyFile) || !existsSync(certFile)) continue;
        const privateKey = createPrivateKey(readFileSync(keyFile, 'utf8'));
        store.keys.push({ ...e, certPem: readFileSync(certFile, 'utf8'), privateKey, publicKey: createPublicKey(privateKey) });
      }
    }
    if (!store.keys.some((k) => k.retiredAt === undefined)) await store.rotate();
    store.hmacKey = await loadOrCreateHmac(path.join(dir, 'hmac.json'));
    return store;
  }

  get hmac(): HmacKey {
    return this.hmacKey!;
  }

  get active(): SigningKey {
    return this.keys.find((k) => k.retiredAt === undefined)!;
  }

  /** Keys a verifier may still meet: the active one first, then retired ones within their retention. */
  published(): SigningKey[] {
    const now = this.clock.now();
    return this.keys
      .filter((k) => k.retiredAt === undefined || k.retiredAt + this.retainSeconds * 1000 > now)
      .sort((a, b) => Number(a.retiredAt !== undefined) - Number(b.retiredAt !== undefined) || b.createdAt - a.createdAt);
  }

  byKid(kid: string): SigningKey | undefined {
    return this.published().find((k) => k.kid === kid);
  }

  /** Makes a fresh key active; the previous one stays published until its tokens expire. */
  async rotate(): Promise<SigningKey> {
    const now = this.clock.now();
    const { privateKeyPem, certPem } = await generateKeyAndCert({ commonName: 'loupe-idp' });
    const kid = randomToken(16);
    await writeFileAtomic(path.join(this.dir, `${kid}.key.pem`), privateKeyPem, { mode: 0o600 });
    await writeFileAtomic(path.join(this.dir, `${kid}.cert.pem`), certPem, { mode: 0o644 });
    for (const k of this.keys) if (k.retiredAt === undefined) k.retiredAt = now;
    const privateKey = createPrivateKey(privateKeyPem);
    const key: SigningKey = { kid, certPem, privateKey, publicKey: createPublicKey(privateKey), createdAt: now };
    this.keys.push(key);
    this.keys = this.published();
    await this.saveIndex();
    return key;
  }

  jwks(): { keys: Jwk[] } {
    return {
      keys: this.published().map((k) => {
        const jwk = k.publicKey.export({ format: 'jwk' }) as { n: string; e: string };
        return {
          kid: k.kid,
          kty: 'RSA',
          alg: 'RS256',
          use: 'sig',
          n: jwk.n,
          e: jwk.e,
          x5c: [certBase64(k.certPem)],
          x5t: certThumbprint(k.certPem, 'sha1'),
          'x5t#S256': certThumbprint(k.certPem, 'sha256'),
        };
      }),
    };
  }

  private async saveIndex(): Promise<void> {
    const index: KeyIndexEntry[] = this.keys.map(({ kid, createdAt, retiredAt }) => ({ kid, createdAt, ...(retiredAt !== undefined ? { retiredAt } : {}) }));
    await writeJsonAtomic(path.join(this.dir, 'keys.json'), index, { mode: 0o600 });
  }
}

async function loadOrCreateHmac(file: string): Promise<HmacKey> {
  const read = readJsonOrBackup<{ kid: string; secret: string }>(file, (raw) => {
    const r = raw as { kid?: unknown; secret?: unknown };
    if (typeof r.kid !== 'string' || typeof r.secret !== 'string') throw new Error('hmac.json lacks kid or secret');
    return r as { kid: string; secret: string };
  });
  if (read.kind === 'ok') return { kid: read.value.kid, secret: createSecretKey(Buffer.from(read.value.secret, 'base64')) };
  // 64 bytes: HS512 wants a key at least as long as its output.
  const entry = { kid: randomToken(16), secret: randomBytes(64).toString('base64') };
  await writeJsonAtomic(file, entry, { mode: 0o600 });
  return { kid: entry.kid, secret: createSecretKey(Buffer.from(entry.secret, 'base64')) };
}

/** The HTTPS listener's key and certificate (SAN 127.0.0.1 and localhost), made once and kept. */
export async function loadOrCreateTlsMaterial(dir: string): Promise<{ key: string; cert: string }> {
  const keyFile = path.join(dir, 'tls.key.pem');
  const certFile = path.join(dir, 'tls.cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  const { privateKeyPem, certPem } = await generateKeyAndCert({ commonName: 'localhost', dnsNames: ['localhost'], ips: ['127.0.0.1'], validDays: 825 });
  await writeFileAtomic(keyFile, privateKeyPem, { mode: 0o600 });
  await writeFileAtomic(certFile, certPem, { mode: 0o644 });
  return { key: privateKeyPem, cert: certPem };
}
