/**
 * The federation commands of `loupe`, for a terminal and for the AWS CLI:
 *
 *   loupe login saml --profile NAME      the IdP page in the capture browser, then AssumeRoleWithSAML
 *   loupe login oidc --profile NAME      authorization code + PKCE in a browser (or --password-stdin)
 *   loupe credential-process --profile NAME   credential_process JSON; cached while valid, else signs in
 *   loupe creds export --profile NAME --format env|fish|powershell|ini|json
 *
 * A profile is a saved sign-in profile (the same ones the workbench saves); flags given to `login`
 * create or update it. The IdP and token service are the running Loupe's (found by --data-dir and
 * --port-base, as `loupe serve` finds them) or the remote ones Settings names.
 */
import path from 'node:path';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { decodeJwt } from 'jose';
import { defaultDataDir } from '../host/data-dir.js';
import { parsePort, portOverrides } from '../host/ports.js';
import { SettingsStore } from '../host/settings.js';
import {
  CredentialCache,
  EXPORT_FORMATS,
  SignInProfiles,
  StsCallError,
  TokenEndpointError,
  assumeRoleWithSaml,
  assumeRoleWithWebIdentity,
  credentialProcessJson,
  formatCredentials,
  requestToken,
  writeCredentialsProfile,
  type Assumed,
  type ExportFormat,
  type SignInProfile,
} from '../federation/credentials/index.js';
import { captureSamlWithPlaywright, cdpPortFromEnv, hasDisplay } from '../federation/capture/playwright-capture.js';
import { DEFAULT_SIGNIN_PATTERNS } from '../federation/capture/signin-patterns.js';
import { signInWithAuthorizationCode } from '../federation/capture/oidc-code-flow.js';
import { CaptureError, type CaptureProgress } from '../federation/capture/types.js';
import type { RolePair } from '../federation/saml/post-body.js';

export interface FederationIo {
  out(line: string): void;
  err(line: string): void;
  /** All of standard input (for --password-stdin). */
  readStdin(): Promise<string>;
  /** Asks on the terminal; undefined when there is no terminal to ask on. */
  ask?(question: string): Promise<string>;
}

export const FEDERATION_HELP = `Federation:
  loupe login saml --profile NAME [--role ARN] [--sso-url URL | --client URLNAME] [--duration S]
                                      sign in on the IdP page in a browser, pick a role (from the profile,
                                      --role, or asked), write the credentials to ~/.aws/credentials [NAME]
  loupe login oidc --profile NAME --role ARN [--client ID] [--username U --password-stdin]
                                      authorization code + PKCE in a browser, or the password grant with
                                      the password read from stdin; then AssumeRoleWithWebIdentity
                                      (client secret, if the client has one: LOUPE_OIDC_CLIENT_SECRET)
  loupe credential-process --profile NAME
                                      credential_process JSON for the AWS CLI/SDKs: cached credentials
                                      while valid (0600), else signs in again
  loupe creds export --profile NAME --format env|fish|powershell|ini|json
                                      the profile's credentials as shell exports, an ini profile or JSON
  Common: --data-dir DIR, --port-base N (find the running Loupe), --realm R (default federation),
  --headless (no window; for scripts that drive the page over LOUPE_CAPTURE_CDP_PORT)`;

class FederationUsageError extends Error {}

interface Endpoints {
  /** The IdP base for the browser (SAML IdP-initiated pages). */
  idp: string;
  /** The IdP's HTTPS base: the issuer the token service trusts for web identity. */
  idpHttps: string;
  /** The embedded IdP's self-signed certificate, when the IdP is embedded. */
  caPem?: string;
  sts: string;
}

/** Where the running Loupe's IdP and token service are, by the same rules `loupe serve` uses. */
export function resolveEndpoints(dataDir: string, env: NodeJS.ProcessEnv, portBase?: number): Endpoints {
  const s = new SettingsStore(dataDir, portOverrides(env, portBase)).effective();
  const idpRemote = s.areas.idp.mode === 'remote' ? s.areas.idp.remoteUrl.replace(/\/+$/, '') : undefined;
  const sts = s.areas.sts.mode === 'remote' ? s.areas.sts.remoteUrl.replace(/\/+$/, '') : `http://127.0.0.1:${s.areas.sts.port}`;
  if (idpRemote) return { idp: idpRemote, idpHttps: idpRemote, sts };
  let caPem: string | undefined;
  try {
    caPem = readFileSync(path.join(dataDir, 'idp', 'keys', 'tls.cert.pem'), 'utf8');
  } catch {
    // Not started yet in this data folder; the HTTPS call then fails with a clear message.
  }
  return { idp: `http://127.0.0.1:${s.areas.idp.port}`, idpHttps: `https://127.0.0.1:${s.idpHttpsPort}`, ...(caPem ? { caPem } : {}), sts };
}

interface Ctx {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  io: FederationIo;
  endpoints: Endpoints;
  profiles: SignInProfiles;
  cache: CredentialCache;
  headless: boolean;
  cdpPort?: number;
}

const COMMON = {
  profile: { type: 'string' as const },
  'data-dir': { type: 'string' as const },
  'port-base': { type: 'string' as const },
  realm: { type: 'string' as const },
  headless: { type: 'boolean' as const, default: false },
  help: { type: 'boolean' as const, short: 'h', default: false },
};

type Values = Record<string, string | boolean | undefined>;

function parse(argv: string[], extra: Record<string, { type: 'string' | 'boolean'; default?: boolean }>): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...COMMON, ...extra } });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (err) {
    throw new FederationUsageError((err as Error).message);
  }
}

/** A string flag's value, or undefined. */
const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

function context(values: Values, env: NodeJS.ProcessEnv, io: FederationIo): Ctx {
  const dataDir = path.resolve(str(values['data-dir']) ?? defaultDataDir(env));
  const portBase = str(values['port-base']) !== undefined ? parsePort(String(values['port-base']), '--port-base') : undefined;
  const cdpPort = cdpPortFromEnv(env);
  return {
    dataDir,
    env,
    io,
    endpoints: resolveEndpoints(dataDir, env, portBase),
    profiles: new SignInProfiles(dataDir),
    cache: new CredentialCache(dataDir),
    headless: values.headless === true || !hasDisplay(env),
    ...(cdpPort ? { cdpPort } : {}),
  };
}

function needProfile(values: Values): string {
  const name = str(values.profile);
  if (!name) throw new FederationUsageError('--profile NAME is required');
  if (!/^[A-Za-z0-9_.@+-]{1,64}$/.test(name)) throw new FederationUsageError(`--profile: "${name}" must be letters, digits and _ . @ + - (it is also the AWS profile name)`);
  return name;
}

const progressTo = (io: FederationIo) => (p: CaptureProgress) => {
  if (p.stage !== 'closed') io.err(`loupe: ${p.message}`);
};

/** An STS or Keycloak refusal with the system's words and the fix, for stderr. */
function explain(err: unknown): string {
  if (err instanceof StsCallError) {
    const fix = /RoleSessionName/i.test(err.message)
      ? 'add a RoleSessionName mapper (https://aws.amazon.com/SAML/Attributes/RoleSessionName) to the client in the identity provider'
      : err.code === 'ExpiredTokenException'
        ? 'sign in again'
        : err.code === 'AccessDenied'
          ? "the role's trust policy does not allow this provider or user"
          : err.code === 'ValidationError' && /Duration/i.test(err.message)
            ? "ask for a shorter --duration (at most the role's maximum)"
            : err.code === 'Unreachable'
              ? 'start Loupe (loupe serve or loupe services) or point Settings at the token service'
              : 'see the message';
    return `token service: ${err.code}: ${err.message}\nfix: ${fix}`;
  }
  if (err instanceof TokenEndpointError) {
    const body = err.body ?? {};
    const fix =
      body.error === 'unauthorized_client' && /direct access grants/i.test(String(body.error_description))
        ? 'enable Direct access grants for this client in the identity provider, or leave out --password-stdin to sign in in a browser'
        : body.error === 'invalid_grant'
          ? 'check the username and password'
          : body.error === 'invalid_client'
            ? 'check the client id and LOUPE_OIDC_CLIENT_SECRET'
            : 'see the message';
    return `identity provider: ${err.message}\nfix: ${fix}`;
  }
  if (err instanceof CaptureError) return `sign-in browser: ${err.message}`;
  return (err as Error).message;
}

async function pickRole(ctx: Ctx, roles: RolePair[], wanted: string | undefined): Promise<RolePair> {
  if (roles.length === 0) throw new Error('the assertion carries no role (no Role attribute with role_arn,provider_arn values)');
  if (wanted) {
    const r = roles.find((x) => x.roleArn === wanted || x.roleArn.endsWith(`:role/${wanted}`));
    if (!r) throw new Error(`the assertion does not offer the role ${wanted}; it offers: ${roles.map((x) => x.roleArn).join(', ')}`);
    return r;
  }
  if (roles.length === 1) return roles[0]!;
  const sorted = [...roles].sort((a, b) => a.roleArn.localeCompare(b.roleArn));
  if (!ctx.io.ask) throw new Error(`choose a role with --role; the assertion offers:\n  ${sorted.map((r) => r.roleArn).join('\n  ')}`);
  let account = '';
  sorted.forEach((r, i) => {
    const acct = /::(\d{12}):/.exec(r.roleArn)?.[1] ?? '?';
    if (acct !== account) ctx.io.err(`Account ${(account = acct)}:`);
    ctx.io.err(`  ${i + 1}) ${r.roleArn.replace(/^.*:role\//, '')}  (${r.roleArn})`);
  });
  for (;;) {
    const answer = (await ctx.io.ask(`Role [1-${sorted.length}]: `)).trim();
    const n = Number(answer);
    if (Number.isInteger(n) && n >= 1 && n <= sorted.length) return sorted[n - 1]!;
    const byName = sorted.find((r) => r.roleArn.endsWith(`:role/${answer}`));
    if (byName) return byName;
  }
}

async function signInSaml(ctx: Ctx, p: SignInProfile): Promise<{ assumed: Assumed; profile: SignInProfile }> {
  const realm = p.realm ?? 'federation';
  const ssoUrl = p.ssoUrl ?? `${ctx.endpoints.idp}/realms/${encodeURIComponent(realm)}/protocol/saml/clients/${encodeURIComponent(p.urlName ?? 'cloud')}`;
  const r = await captureSamlWithPlaywright({
    ssoUrl,
    headless: ctx.headless,
    patterns: DEFAULT_SIGNIN_PATTERNS,
    ...(ctx.cdpPort ? { cdpPort: ctx.cdpPort } : {}),
    onProgress: progressTo(ctx.io),
  });
  if (!r.summary.roleSessionName) ctx.io.err('loupe: warning: the assertion has no RoleSessionName; the token service will refuse it');
  const role = await pickRole(ctx, r.summary.roles, p.roleArn);
  const durationSeconds = p.durationSeconds ?? r.summary.sessionDuration;
  const assumed = await assumeRoleWithSaml(ctx.endpoints.sts, { samlResponse: r.samlResponse, roleArn: role.roleArn, principalArn: role.principalArn, ...(durationSeconds ? { durationSeconds } : {}) });
  return { assumed, profile: { ...p, roleArn: role.roleArn, principalArn: role.principalArn } };
}

async function signInOidc(ctx: Ctx, p: SignInProfile, password?: string): Promise<{ assumed: Assumed; profile: SignInProfile }> {
  if (!p.roleArn) throw new FederationUsageError('--role ARN is required for an OIDC profile (the role to assume with the token)');
  const realmUrl = `${ctx.endpoints.idpHttps}/realms/${encodeURIComponent(p.realm ?? 'federation')}`;
  const clientSecret = ctx.env.LOUPE_OIDC_CLIENT_SECRET || undefined;
  const tokens =
    password !== undefined
      ? await requestToken(
          `${realmUrl}/protocol/openid-connect/token`,
          {
            grant_type: 'password',
            client_id: p.clientId ?? 'loupe-cli',
            username: p.username ?? '',
            password,
            scope: 'openid',
            ...(clientSecret ? { client_secret: clientSecret } : {}),
          },
          ctx.endpoints.caPem,
        )
      : await signInWithAuthorizationCode({
          realmUrl,
          clientId: p.clientId ?? 'loupe-desktop',
          ...(clientSecret ? { clientSecret } : {}),
          headless: ctx.headless,
          ...(ctx.cdpPort ? { cdpPort: ctx.cdpPort } : {}),
          ...(ctx.endpoints.caPem ? { caPem: ctx.endpoints.caPem } : {}),
          onProgress: progressTo(ctx.io),
        });
  const claims = decodeJwt(tokens.access_token);
  const sessionName = String(claims.preferred_username ?? claims.sub ?? 'loupe').replace(/[^\w+=,.@-]/g, '-').slice(0, 64);
  const assumed = await assumeRoleWithWebIdentity(ctx.endpoints.sts, { token: tokens.access_token, roleArn: p.roleArn, roleSessionName: sessionName.length >= 2 ? sessionName : 'loupe', ...(p.durationSeconds ? { durationSeconds: p.durationSeconds } : {}) });
  return { assumed, profile: p };
}

function credentialsFile(env: NodeJS.ProcessEnv): string {
  return env.AWS_SHARED_CREDENTIALS_FILE ?? path.join(env.HOME ?? os.homedir(), '.aws', 'credentials');
}

/** Signs in with a profile and keeps the result: the cache (for credential_process) and the profile. */
async function signIn(ctx: Ctx, p: SignInProfile, password?: string): Promise<Assumed> {
  const { assumed, profile } = p.kind === 'saml' ? await signInSaml(ctx, p) : await signInOidc(ctx, p, password);
  await ctx.cache.put(profile.name, { credentials: assumed.credentials, ...(profile.roleArn ? { roleArn: profile.roleArn } : {}), assumedRoleArn: assumed.assumedRoleArn });
  await ctx.profiles.save(profile);
  await ctx.profiles.touch(profile.name);
  return assumed;
}

async function login(argv: string[], env: NodeJS.ProcessEnv, io: FederationIo): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind !== 'saml' && kind !== 'oidc') throw new FederationUsageError(`login needs "saml" or "oidc", got ${kind === undefined ? 'nothing' : `"${kind}"`}`);
  const { values, positionals } = parse(rest, {
    role: { type: 'string' },
    'sso-url': { type: 'string' },
    client: { type: 'string' },
    username: { type: 'string' },
    duration: { type: 'string' },
    region: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  });
  if (values.help) {
    io.out(FEDERATION_HELP);
    return 0;
  }
  if (positionals.length) throw new FederationUsageError(`unexpected argument "${positionals[0]}"`);
  const name = needProfile(values);
  const ctx = context(values, env, io);
  const saved = ctx.profiles.get(name);
  if (saved && saved.kind !== kind) throw new FederationUsageError(`profile ${name} is a ${saved.kind.toUpperCase()} profile; use "loupe login ${saved.kind}" or another --profile`);
  const duration = str(values.duration) !== undefined ? Number(values.duration) : undefined;
  if (duration !== undefined && (!Number.isInteger(duration) || duration < 900 || duration > 43200)) throw new FederationUsageError('--duration must be 900 … 43200 seconds');
  const profile: SignInProfile = {
    ...(saved ?? {}),
    name,
    kind,
    ...(str(values.realm) ? { realm: str(values.realm) } : {}),
    ...(str(values['sso-url']) ? { ssoUrl: str(values['sso-url']) } : {}),
    ...(str(values.client) ? (kind === 'saml' ? { urlName: str(values.client) } : { clientId: str(values.client) }) : {}),
    ...(str(values.username) ? { username: str(values.username) } : {}),
    ...(str(values.role) ? { roleArn: str(values.role) } : {}),
    ...(duration ? { durationSeconds: duration } : {}),
    ...(str(values.region) ? { region: str(values.region) } : {}),
  };
  let password: string | undefined;
  if (values['password-stdin']) {
    if (kind !== 'oidc') throw new FederationUsageError('--password-stdin is for "login oidc" (SAML signs in on the IdP page)');
    if (!profile.username) throw new FederationUsageError('--password-stdin needs --username (or a profile that has one)');
    password = (await io.readStdin()).replace(/\r?\n$/, '');
  }
  const assumed = await signIn(ctx, profile, password);
  if (!values['no-write']) {
    const file = credentialsFile(env);
    const written = await writeCredentialsProfile({ file, profile: name, credentials: assumed.credentials, ...(profile.region ? { region: profile.region } : {}) });
    io.err(`loupe: wrote profile [${name}] to ${file}${written.backup ? ` (previous file kept as ${written.backup})` : ''}`);
  }
  io.out(`${assumed.assumedRoleArn} until ${assumed.credentials.expiration}`);
  return 0;
}

/** Cached credentials while valid, else a fresh sign-in with the saved profile. */
async function credentialsFor(ctx: Ctx, name: string): Promise<Assumed['credentials']> {
  const cached = await ctx.cache.get(name);
  if (cached) return cached.credentials;
  const p = ctx.profiles.get(name);
  if (!p) throw new FederationUsageError(`there is no sign-in profile named ${name}; create it with "loupe login saml --profile ${name}" (or oidc), or "Write profile" in the workbench`);
  ctx.io.err(`loupe: the credentials of ${name} have expired; signing in again`);
  return (await signIn(ctx, p)).credentials;
}

async function credentialProcess(argv: string[], env: NodeJS.ProcessEnv, io: FederationIo): Promise<number> {
  const { values, positionals } = parse(argv, {});
  if (values.help) {
    io.out(FEDERATION_HELP);
    return 0;
  }
  if (positionals.length) throw new FederationUsageError(`unexpected argument "${positionals[0]}"`);
  const ctx = context(values, env, io);
  io.out(credentialProcessJson(await credentialsFor(ctx, needProfile(values))));
  return 0;
}

async function credsExport(argv: string[], env: NodeJS.ProcessEnv, io: FederationIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'export') throw new FederationUsageError(`creds needs "export", got ${sub === undefined ? 'nothing' : `"${sub}"`}`);
  const { values, positionals } = parse(rest, { format: { type: 'string' } });
  if (values.help) {
    io.out(FEDERATION_HELP);
    return 0;
  }
  if (positionals.length) throw new FederationUsageError(`unexpected argument "${positionals[0]}"`);
  const format = (str(values.format) ?? 'env') as ExportFormat;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new FederationUsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const ctx = context(values, env, io);
  const name = needProfile(values);
  io.out(formatCredentials(await credentialsFor(ctx, name), format, name, ctx.profiles.get(name)?.region).replace(/\n$/, ''));
  return 0;
}

/** Runs `login`, `credential-process` or `creds`; returns the exit code (2: usage, 1: failed). */
export async function runFederationCommand(command: 'login' | 'credential-process' | 'creds', argv: string[], env: NodeJS.ProcessEnv, io: FederationIo): Promise<number> {
  try {
    if (command === 'login') return await login(argv, env, io);
    if (command === 'credential-process') return await credentialProcess(argv, env, io);
    return await credsExport(argv, env, io);
  } catch (err) {
    if (err instanceof FederationUsageError) {
      io.err(`loupe ${command}: ${err.message}\n\n${FEDERATION_HELP}`);
      return 2;
    }
    io.err(`loupe ${command}: ${explain(err)}`);
    return 1;
  }
}

/** The real terminal: stdin read whole for --password-stdin, questions asked on stderr when stdin is a TTY. */
export function terminalIo(): FederationIo {
  return {
    out: (s) => process.stdout.write(s + '\n'),
    err: (s) => process.stderr.write(s + '\n'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    ...(process.stdin.isTTY
      ? {
          ask: async (q: string) => {
            const rl = createInterface({ input: process.stdin, output: process.stderr });
            try {
              return await rl.question(q);
            } finally {
              rl.close();
            }
          },
        }
      : {}),
  };
}
