/** New temporary credentials in AWS's shapes: ASIA… key id, 40-character secret, opaque token. */
import { randomBytes } from 'node:crypto';
import { randomAlnum } from '../../../common/ids.js';

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: string;
}

export function newCredentials(expiresAtMs: number): TemporaryCredentials {
  return {
    // 20 characters like AWS's temporary key ids: "ASIA" + 16 of [A-Z2-7].
    accessKeyId: 'ASIA' + randomAlnum(16),
    secretAccessKey: randomBytes(30).toString('base64').replace(/\+/g, 'A').replace(/\//g, 'B'),
    // AWS session tokens are long opaque base64; ours carries nothing and is looked up by key id.
    sessionToken: 'IQoJb3JpZ2luX2VjE' + randomBytes(180).toString('base64'),
    expiration: new Date(Math.floor(expiresAtMs / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
  };
}

/** Role unique ids: "AROA" + 17 of [A-Z0-9], as IAM's. */
export const newRoleId = (): string => 'AROA' + randomAlnum(17, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
