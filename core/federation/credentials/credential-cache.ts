/**
 * Credentials kept between `loupe` runs so `credential_process` answers at once while they are
 * valid (as saml2aws and aws-vault do). One 0600 file per profile in `<data>/federation/cache/`.
 * An entry within `marginSeconds` of its expiry counts as expired: the AWS SDKs refresh ahead of
 * time too, and a key that dies mid-command helps nobody.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../../common/json-store.js';
import type { AwsCredentials } from './types.js';
import { checkProfileName } from './profile-file.js';

export interface CachedCredentials {
  credentials: AwsCredentials;
  roleArn?: string;
  assumedRoleArn?: string;
  cachedAt: string;
}

export class CredentialCache {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'federation', 'cache');
  }

  fileOf(profile: string): string {
    checkProfileName(profile);
    return path.join(this.dir, `${profile}.json`);
  }

  async put(profile: string, entry: Omit<CachedCredentials, 'cachedAt'>, now = new Date()): Promise<void> {
    await writeJsonAtomic(this.fileOf(profile), { ...entry, cachedAt: now.toISOString() }, { mode: 0o600 });
  }

  /** The cached credentials while they have more than `marginSeconds` left, else undefined. */
  async get(profile: string, now = Date.now(), marginSeconds = 60): Promise<CachedCredentials | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(profile), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let entry: CachedCredentials;
    try {
      entry = JSON.parse(text) as CachedCredentials;
    } catch {
      return undefined;
    }
    const expires = Date.parse(entry.credentials?.expiration ?? '');
    if (!Number.isFinite(expires) || expires - now <= marginSeconds * 1000) return undefined;
    return entry;
  }

  async clear(profile: string): Promise<void> {
    await rm(this.fileOf(profile), { force: true });
  }
}
