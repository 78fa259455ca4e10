/**
 * `loupe login`, `loupe credential-process` and `loupe creds export` against a real host with the
 * embedded IdP and token service, found the way a user's terminal finds them (--data-dir,
 * --port-base). The browser sign-ins happen on the IdP's real login page in the capture browser
 * (driven over LOUPE_CAPTURE_CDP_PORT); the AWS CLI, where installed, runs a command with a
 * profile whose credential_process is `loupe credential-process`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { logInOverCdp } from '../federation/capture/testing/log-in-over-cdp.js';
import { silentLogger } from '../common/log.js';
import { freePort, freePortBase } from '../common/testing/free-port.js';
import { createHost, type Host } from '../host/host.js';
import type { StsAccountInfo } from '../host/contract.js';
import { runFederationCommand, type FederationIo } from './federation.js';
import { main } from './main.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const READONLY = 'arn:aws:iam::123456789012:role/LoupeReadOnly';
const ADMIN = 'arn:aws:iam::123456789012:role/LoupeAdmin';

let host: Host;
let dir: string;
let portBase: number;
let home: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-fed-'));
  home = mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-home-'));
  portBase = await freePortBase();
  host = await createHost({ dataDir: dir, portBase, env: {}, log: silentLogger });
  await host.startServices(['idp', 'sts']);
  for (let i = 0; i < 100; i++) {
    const out = await host.call('federation.stsAccount', {});
    if (out.ok && (out.result as StsAccountInfo).seedPending.length === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function run(command: 'login' | 'credential-process' | 'creds', args: string[], opts: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: FederationIo = { out: (s) => out.push(s), err: (s) => err.push(s), readStdin: async () => opts.stdin ?? '' };
  const env = { AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'credentials'), HOME: home, ...opts.env };
  return runFederationCommand(command, [...args, '--data-dir', dir, '--port-base', String(portBase)], env, io).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

describe('loupe login, credential-process and creds export', () => {
  it('--help lists the federation commands', async () => {
    const out: string[] = [];
    expect(await main(['--help'], {}, { out: (s) => out.push(s), err: () => {} })).toBe(0);
    expect(out.join('\n')).toMatch(/loupe login saml\|oidc --profile NAME/);
    expect(out.join('\n')).toMatch(/loupe credential-process --profile NAME/);
    expect(out.join('\n')).toMatch(/loupe creds export --profile NAME --format env\|fish\|powershell\|ini\|json/);
  });

  it('login oidc --password-stdin: the password grant, AssumeRoleWithWebIdentity, a 0600 credentials profile, then cached credential_process JSON', async () => {
    const r = await run('login', ['oidc', '--profile', 'cli-ro', '--client', 'loupe-cli', '--username', 'alice', '--role', READONLY, '--password-stdin'], { stdin: 'alice\n', env: { LOUPE_OIDC_CLIENT_SECRET: 'loupe-cli-secret' } });
    expect(r.err).toContain('wrote profile [cli-ro]');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^arn:aws:sts::123456789012:assumed-role\/LoupeReadOnly\/alice until \d{4}-/);
    const file = path.join(home, 'credentials');
    expect(readFileSync(file, 'utf8')).toMatch(/^\[cli-ro\]\naws_access_key_id = ASIA/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const cp = await run('credential-process', ['--profile', 'cli-ro']);
    expect(cp.code).toBe(0);
    const json = JSON.parse(cp.out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['Version', 'AccessKeyId', 'SecretAccessKey', 'SessionToken', 'Expiration']);
    expect(readFileSync(file, 'utf8')).toContain(`aws_access_key_id = ${String(json.AccessKeyId)}`);
    expect(statSync(path.join(dir, 'federation', 'cache', 'cli-ro.json')).mode & 0o777).toBe(0o600);

    const fish = await run('creds', ['export', '--profile', 'cli-ro', '--format', 'fish']);
    expect(fish.out.split('\n')[0]).toBe(`set -gx AWS_ACCESS_KEY_ID '${String(json.AccessKeyId)}'`);
  }, 60_000);

  it("a wrong password and a client without direct access grants come back in Keycloak's words with the fix", async () => {
    const bad = await run('login', ['oidc', '--profile', 'bad', '--client', 'loupe-cli', '--username', 'alice', '--role', READONLY, '--password-stdin', '--no-write'], { stdin: 'wrong', env: { LOUPE_OIDC_CLIENT_SECRET: 'loupe-cli-secret' } });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('identity provider: invalid_grant: Invalid user credentials');
    expect(bad.err).toContain('fix: check the username and password');
    const web = await run('login', ['oidc', '--profile', 'web', '--client', 'loupe-web', '--username', 'alice', '--role', READONLY, '--password-stdin', '--no-write'], { stdin: 'alice', env: { LOUPE_OIDC_CLIENT_SECRET: 'loupe-web-secret' } });
    expect(web.err).toContain('unauthorized_client: Client not allowed for direct access grants');
    expect(web.err).toContain('fix: enable Direct access grants for this client');
  }, 30_000);

  it('login saml: alice signs in on the IdP page in the capture browser; the profile role is taken, the credentials written', async () => {
    const cdp = await freePort();
    const login = run('login', ['saml', '--profile', 'saml-admin', '--role', 'LoupeAdmin'], { env: { LOUPE_CAPTURE_CDP_PORT: String(cdp) } });
    await logInOverCdp(cdp, 'alice', { page: /\/protocol\/saml\/clients\/cloud/ });
    const r = await login;
    expect(r.err).not.toContain('loupe login:');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^arn:aws:sts::123456789012:assumed-role\/LoupeAdmin\/alice until /);
    expect(readFileSync(path.join(home, 'credentials'), 'utf8')).toContain('[saml-admin]\n');
    expect(readFileSync(path.join(dir, 'federation', 'profiles.json'), 'utf8')).toContain(ADMIN);
  }, 90_000);

  it('login saml with two roles and no terminal to ask on names the roles and --role', async () => {
    const cdp = await freePort();
    const login = run('login', ['saml', '--profile', 'saml-which', '--no-write'], { env: { LOUPE_CAPTURE_CDP_PORT: String(cdp) } });
    await logInOverCdp(cdp, 'alice', { page: /\/protocol\/saml\/clients\/cloud/ });
    const r = await login;
    expect(r.code).toBe(1);
    expect(r.err).toContain('choose a role with --role; the assertion offers:');
    expect(r.err).toContain(READONLY);
  }, 90_000);

  it('login oidc without --password-stdin: authorization code with PKCE in the browser, loopback redirect, then web identity', async () => {
    const cdp = await freePort();
    const login = run('login', ['oidc', '--profile', 'pkce', '--client', 'loupe-desktop', '--role', READONLY, '--no-write'], { env: { LOUPE_CAPTURE_CDP_PORT: String(cdp) } });
    await logInOverCdp(cdp, 'bob', { page: /\/protocol\/openid-connect\/auth/ });
    const r = await login;
    expect(r.err).toContain('Got the authorization code on the loopback redirect');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^arn:aws:sts::123456789012:assumed-role\/LoupeReadOnly\/bob until /);
  }, 90_000);

  it('a profile that does not exist is a usage error that says how to create it', async () => {
    const r = await run('credential-process', ['--profile', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('there is no sign-in profile named nope; create it with "loupe login saml --profile nope"');
  });

  const aws = (() => {
    try {
      execFileSync('aws', ['--version'], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!aws)('the AWS CLI runs sts get-caller-identity with credential_process = loupe credential-process (skipped where `aws` is not installed)', async () => {
    const config = path.join(home, 'config');
    writeFileSync(config, `[profile cli-ro]\ncredential_process = ${process.execPath} ${path.join(ROOT, 'bin', 'loupe.mjs')} credential-process --profile cli-ro --data-dir ${dir} --port-base ${portBase}\nregion = us-east-1\n`);
    const stsUrl = `http://127.0.0.1:${portBase + 3}`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        'aws',
        ['sts', 'get-caller-identity', '--profile', 'cli-ro', '--endpoint-url', stsUrl, '--output', 'json'],
        { env: { PATH: process.env.PATH, HOME: home, AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'nothing-here') }, timeout: 60_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(out)).toMatchObject({ Arn: 'arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/alice', Account: '123456789012' });
  }, 90_000);
});
