import { randomBytes, randomUUID } from 'node:crypto';

export const uuid = (): string => randomUUID();

/** URL-safe random token of `bytes` bytes of entropy. */
export const randomToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** Upper-case alphanumeric id, e.g. for AWS-style key ids. */
export function randomAlnum(length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
