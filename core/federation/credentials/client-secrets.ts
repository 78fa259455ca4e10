/**
 * OIDC client secrets remembered for the next sign-in, only where the OS can encrypt them: the
 * desktop app passes Electron's safeStorage (Keychain, DPAPI, libsecret). The file
 * (`<data>/federation/client-secrets.json`, 0600) holds ciphertext only; without an OS cipher
 * nothing is kept and a secret is used for one sign-in. Never in settings.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../../common/json-store.js';

/** The part of Electron's safeStorage used here. */
export interface SecretCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
}

interface SecretsFile {
  version: 1;
  /** clientId → base64 ciphertext */
  secrets: Record<string, string>;
}

export class ClientSecrets {
  readonly file: string;
  constructor(
    dataDir: string,
    private readonly cipher?: SecretCipher,
  ) {
    this.file = path.join(dataDir, 'federation', 'client-secrets.json');
  }

  available(): boolean {
    return this.cipher?.isEncryptionAvailable() ?? false;
  }

  private read(): SecretsFile {
    try {
      const f = JSON.parse(readFileSync(this.file, 'utf8')) as SecretsFile;
      return f.version === 1 && f.secrets ? f : { version: 1, secrets: {} };
    } catch {
      return { version: 1, secrets: {} };
    }
  }

  clients(): string[] {
    return Object.keys(this.read().secrets).sort();
  }

  async set(key: string, secret: string): Promise<void> {
    if (!this.cipher || !this.available()) throw new Error('This system offers no encryption for secrets (OS keychain); the client secret is used for this sign-in only and not kept.');
    const f = this.read();
    f.secrets[key] = this.cipher.encryptString(secret).toString('base64');
    await writeJsonAtomic(this.file, f, { mode: 0o600 });
  }

  get(key: string): string | undefined {
    const c = this.read().secrets[key];
    if (!c || !this.cipher || !this.available()) return undefined;
    try {
      return this.cipher.decryptString(Buffer.from(c, 'base64'));
    } catch {
      // Encrypted by another user or machine: as good as absent.
      return undefined;
    }
  }

  async remove(key: string): Promise<void> {
    const f = this.read();
    if (!(key in f.secrets)) return;
    delete f.secrets[key];
    await writeJsonAtomic(this.file, f, { mode: 0o600 });
  }
}
