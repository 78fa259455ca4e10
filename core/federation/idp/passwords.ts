/**
 * Password hashing with node:crypto's scrypt (N=2^14, r=8, p=1: 16 MiB, memory-hard), run on
 * libuv's thread pool, off the event loop; the stored string carries its own parameters, so a
 * stronger setting later still verifies what is stored.
 *
 * Why not Keycloak's own hash: Keycloak 26 hashes with Argon2id (7 MiB, 5 passes, 1 lane; its
 * FIPS default and Keycloak 24's is PBKDF2-SHA512 at 210,000 iterations, 27,500 PBKDF2-SHA256
 * before). Node 20 has no Argon2 (pure-JS Argon2id with those settings took 0.6-1 s here), and
 * PBKDF2-SHA512 at 210,000 took 0.3-0.8 s against scrypt's 60-160 ms on this machine: scrypt is
 * memory-hard like Argon2, in the same cost class as Keycloak's Argon2 default, at a login
 * cost that fits a sign-in under a second. Only the hash of a password is ever kept.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spends the same time as a real check, so unknown users cannot be told apart by timing. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('loupe-dummy-password');
  await verifyPassword(password, await dummyHash);
}
