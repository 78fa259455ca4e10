/**
 * The credentials methods through the host's dispatcher, on a temporary HOME: copy formats,
 * "Write profile" (credentials and config files, 0600, backups, the credential_process command)
 * and the saved sign-in profiles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import { Dispatcher } from '../dispatch.js';
import type { HostRuntime } from '../area.js';
import { federationCredentialsArea } from './federation-credentials.js';
import { CredentialCache } from '../../federation/credentials/index.js';

const creds = { accessKeyId: 'ASIAEXAMPLEEXAMPLE12', secretAccessKey: 'secret/with+chars', sessionToken: 'token==', expiration: '2099-01-01T00:00:00Z' };
let home: string;
let dispatcher: Dispatcher;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'loupe-home-'));
  const rt: HostRuntime = { handle: () => undefined, urlOf: () => 'http://127.0.0.1:1', emit: () => {}, dataDir: path.join(home, 'data'), log: silentLogger };
  dispatcher = new Dispatcher(federationCredentialsArea, rt);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function call(method: string, params: unknown) {
  const out = await dispatcher.call(method, params);
  if (!out.ok) throw new Error(out.error.message);
  return out.result as Record<string, unknown>;
}

describe('credentials after sign-in', () => {
  it('"Copy" formats: PowerShell lines and a credentials-file profile named as asked', async () => {
    expect((await call('federation.formatCredentials', { credentials: creds, format: 'powershell' })).text).toContain(`$env:AWS_SESSION_TOKEN = 'token=='`);
    expect((await call('federation.formatCredentials', { credentials: creds, format: 'ini', profile: 'dev' })).text).toMatch(/^\[dev\]\naws_access_key_id = ASIAEXAMPLEEXAMPLE12\n/);
  });

  it('"Write profile" keeps other profiles and a backup, writes 0600, adds credential_process, and caches for it', async () => {
    const credentialsFile = path.join(home, '.aws', 'credentials');
    const configFile = path.join(home, '.aws', 'config');
    await call('federation.writeProfile', { credentials: creds, profile: 'first', credentialsFile });
    writeFileSync(configFile, '[default]\nregion = eu-west-1\n');
    const r = await call('federation.writeProfile', {
      credentials: creds,
      profile: 'loupe-ro',
      credentialsFile,
      credentialProcess: true,
      configFile,
      signIn: { kind: 'saml', realm: 'federation', urlName: 'cloud', roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly' },
    });
    expect(r).toMatchObject({ credentialsFile, credentialsBackup: `${credentialsFile}.loupe-backup`, configFile, configBackup: `${configFile}.loupe-backup` });
    const text = readFileSync(credentialsFile, 'utf8');
    expect(text).toContain('[first]\n');
    expect(text).toContain('[loupe-ro]\naws_access_key_id = ASIAEXAMPLEEXAMPLE12\n');
    expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(configFile, 'utf8')).toContain(`[default]\nregion = eu-west-1\n\n[profile loupe-ro]\ncredential_process = ${String(r.command)}\n`);
    expect(String(r.command)).toMatch(/bin\/loupe\.mjs credential-process --profile loupe-ro --data-dir /);
    expect((await new CredentialCache(path.join(home, 'data')).get('loupe-ro'))?.credentials).toEqual(creds);
    const profiles = await call('federation.profiles', {});
    expect(profiles.profiles).toEqual([{ name: 'loupe-ro', kind: 'saml', realm: 'federation', urlName: 'cloud', roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly' }]);
  });

  it('a bad profile name is refused before anything is written', async () => {
    await expect(call('federation.writeProfile', { credentials: creds, profile: 'a b', credentialsFile: path.join(home, 'c') })).rejects.toThrow(/profile: letters, digits/);
  });

  it('sign-in profiles: the one used last is remembered', async () => {
    await call('federation.saveProfile', { name: 'a', kind: 'saml', realm: 'federation', urlName: 'cloud' });
    await call('federation.saveProfile', { name: 'b', kind: 'oidc', realm: 'federation', clientId: 'loupe-cli', username: 'alice' });
    await call('federation.useProfile', { name: 'b' });
    expect((await call('federation.profiles', {})).lastUsed).toBe('b');
    await expect(call('federation.useProfile', { name: 'zzz' })).rejects.toThrow('There is no sign-in profile named zzz');
    expect(await call('federation.deleteProfile', { name: 'b' })).toEqual({ deleted: true });
  });
});

describe('client secrets', () => {
  /** Stands in for Electron's safeStorage (the OS keychain); the bytes it writes are not the secret. */
  const osCipher = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
    decryptString: (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
  };

  it('are kept only encrypted by the OS (desktop), 0600, never in plain text, and forgotten on request', async () => {
    const dataDir = path.join(home, 'desk');
    const d = new Dispatcher(federationCredentialsArea, { handle: () => undefined, urlOf: () => 'http://127.0.0.1:1', emit: () => {}, dataDir, log: silentLogger, secretCipher: osCipher });
    const call2 = async (m: string, p: unknown) => {
      const out = await d.call(m, p);
      if (!out.ok) throw new Error(out.error.message);
      return out.result as Record<string, unknown>;
    };
    expect(await call2('federation.clientSecrets', {})).toEqual({ available: true, clients: [] });
    await call2('federation.saveClientSecret', { clientId: 'loupe-cli', secret: 'loupe-cli-secret' });
    const file = path.join(dataDir, 'federation', 'client-secrets.json');
    expect(readFileSync(file, 'utf8')).not.toContain('loupe-cli-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await call2('federation.clientSecrets', {})).toEqual({ available: true, clients: ['loupe-cli'] });
    expect(await call2('federation.forgetClientSecret', { clientId: 'loupe-cli' })).toEqual({ forgotten: true });
  });

  it('without an OS cipher (browser host, terminal) nothing is kept, and saying so is the answer', async () => {
    expect(await call('federation.clientSecrets', {})).toEqual({ available: false, clients: [] });
    await expect(call('federation.saveClientSecret', { clientId: 'loupe-cli', secret: 's' })).rejects.toThrow(/no encryption for secrets .* not kept/);
  });
});
