import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CredentialCache, SignInProfiles, credentialProcessJson, envLines, formatCredentials, writeConfigCredentialProcess, writeCredentialsProfile, type AwsCredentials } from './index.js';

const creds: AwsCredentials = {
  accessKeyId: 'ASIAEXAMPLEEXAMPLE12',
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCY'EXAMPLE",
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE+/token==',
  expiration: '2026-01-01T12:00:00Z',
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-creds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('~/.aws/credentials profile', () => {
  it('is created with mode 0600 and the three credential keys', async () => {
    const file = path.join(dir, '.aws', 'credentials');
    await writeCredentialsProfile({ file, profile: 'loupe', credentials: creds });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(
      `[loupe]\naws_access_key_id = ${creds.accessKeyId}\naws_secret_access_key = ${creds.secretAccessKey}\naws_session_token = ${creds.sessionToken}\nx_security_token_expires = ${creds.expiration}\n`,
    );
  });

  it('keeps other profiles, comments and extra keys, and replaces only the named profile', async () => {
    const file = path.join(dir, 'credentials');
    writeFileSync(file, '# my keys\n[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = s\n\n[loupe]\nregion = eu-west-1\naws_access_key_id = OLD\naws_session_token = OLD\n\n[other]\naws_access_key_id = AKIAOTHER\n', { mode: 0o644 });
    await writeCredentialsProfile({ file, profile: 'loupe', credentials: creds });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# my keys\n[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = s\n\n[loupe]\n');
    expect(text).toContain('region = eu-west-1');
    expect(text).not.toContain('OLD');
    expect(text).toContain('\n\n[other]\naws_access_key_id = AKIAOTHER\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Atomic replacement leaves no temporary files behind; the previous file is kept, 0600.
    expect(readdirSync(dir).sort()).toEqual(['credentials', 'credentials.loupe-backup']);
    expect(readFileSync(path.join(dir, 'credentials.loupe-backup'), 'utf8')).toContain('aws_access_key_id = OLD');
    expect(statSync(path.join(dir, 'credentials.loupe-backup')).mode & 0o777).toBe(0o600);
  });

  it('refuses a profile name that would break the file', async () => {
    await expect(writeCredentialsProfile({ file: path.join(dir, 'c'), profile: 'a]\n[b', credentials: creds })).rejects.toThrow(/profile name/);
  });
});

describe('credential_process output', () => {
  it('is the JSON the AWS CLI expects, Version 1 first', () => {
    expect(credentialProcessJson(creds)).toBe(
      `{"Version":1,"AccessKeyId":"${creds.accessKeyId}","SecretAccessKey":${JSON.stringify(creds.secretAccessKey)},"SessionToken":"${creds.sessionToken}","Expiration":"2026-01-01T12:00:00Z"}`,
    );
  });
});

describe('environment export lines', () => {
  it('a POSIX shell evaluating them gets exactly the values back, quotes included', () => {
    const script = envLines(creds).join('\n') + '\nprintf "%s|%s|%s|%s" "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" "$AWS_SESSION_TOKEN" "$AWS_CREDENTIAL_EXPIRATION"';
    const out = execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    expect(out).toBe([creds.accessKeyId, creds.secretAccessKey, creds.sessionToken, creds.expiration].join('|'));
  });

  it('has fish and PowerShell forms', () => {
    expect(envLines(creds, 'fish')[0]).toBe(`set -gx AWS_ACCESS_KEY_ID 'ASIAEXAMPLEEXAMPLE12'`);
    expect(envLines(creds, 'powershell')[1]).toBe(`$env:AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY''EXAMPLE'`);
  });
});

describe('~/.aws/config credential_process entry', () => {
  it('adds [profile NAME] with credential_process and keeps the rest of the file, with a backup', async () => {
    const file = path.join(dir, 'config');
    writeFileSync(file, '[default]\nregion = eu-west-1\n\n[profile work]\nregion = us-east-2\n');
    const out = await writeConfigCredentialProcess({ file, profile: 'loupe-ro', command: 'loupe credential-process --profile loupe-ro', region: 'us-east-1' });
    expect(readFileSync(file, 'utf8')).toBe('[default]\nregion = eu-west-1\n\n[profile work]\nregion = us-east-2\n\n[profile loupe-ro]\ncredential_process = loupe credential-process --profile loupe-ro\nregion = us-east-1\n');
    expect(out.backup).toBe(`${file}.loupe-backup`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('export formats', () => {
  it('writes a credentials-file profile and the credential_process JSON', () => {
    expect(formatCredentials(creds, 'ini', 'dev')).toBe(`[dev]\naws_access_key_id = ${creds.accessKeyId}\naws_secret_access_key = ${creds.secretAccessKey}\naws_session_token = ${creds.sessionToken}\nx_security_token_expires = ${creds.expiration}\n`);
    expect(JSON.parse(formatCredentials(creds, 'json'))).toEqual({ Version: 1, AccessKeyId: creds.accessKeyId, SecretAccessKey: creds.secretAccessKey, SessionToken: creds.sessionToken, Expiration: creds.expiration });
    expect(formatCredentials(creds, 'fish').split('\n')[0]).toBe(`set -gx AWS_ACCESS_KEY_ID 'ASIAEXAMPLEEXAMPLE12'`);
  });
});

describe('saved sign-in profiles', () => {
  it('are kept 0600, sorted by name, and remember the one used last', async () => {
    const store = new SignInProfiles(dir);
    await store.save({ name: 'ro', kind: 'saml', realm: 'federation', urlName: 'cloud', roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly', durationSeconds: 3600 });
    await store.save({ name: 'admin', kind: 'saml', realm: 'federation', urlName: 'cloud' });
    await store.touch('ro');
    const again = new SignInProfiles(dir).list();
    expect(again.profiles.map((p) => p.name)).toEqual(['admin', 'ro']);
    expect(again.lastUsed).toBe('ro');
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(await store.remove('ro')).toBe(true);
    expect(new SignInProfiles(dir).list()).toEqual({ profiles: [expect.objectContaining({ name: 'admin' })] });
  });
});

describe('credential cache', () => {
  it('answers while the credentials have more than a minute left, from a 0600 file', async () => {
    const cache = new CredentialCache(dir);
    const now = Date.parse('2026-01-01T11:00:00Z');
    await cache.put('ro', { credentials: creds });
    expect(statSync(cache.fileOf('ro')).mode & 0o777).toBe(0o600);
    expect((await cache.get('ro', now))?.credentials).toEqual(creds);
    expect(await cache.get('ro', Date.parse('2026-01-01T11:59:30Z'))).toBeUndefined();
    expect(await cache.get('other', now)).toBeUndefined();
  });
});
