/** Test helpers: a started IdP in a temporary data dir, form posts, and xmlsec1 verification. */
import { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { silentLogger, type Logger } from '../../../common/log.js';
import type { ServiceHandle } from '../../../common/service.js';
import { startIdpService, type IdpServiceOptions } from '../service.js';
import type { IdpApi } from '../api.js';

export interface Harness {
  idp: ServiceHandle<IdpApi>;
  dir: string;
  close(): Promise<void>;
}

export async function startHarness(opts: IdpServiceOptions & { dir?: string; log?: Logger } = {}): Promise<Harness> {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'loupe-idp-'));
  const idp = await startIdpService({ host: '127.0.0.1', port: 0, httpsPort: 0, dataDir: dir, log: opts.log ?? silentLogger, peers: {} }, opts);
  return {
    idp,
    dir,
    close: async () => {
      await idp.close();
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
}

/** Reads Keycloak's auto-submit page: the form action and its hidden inputs. */
export function parseAutoPost(html: string): { action: string; SAMLResponse: string; RelayState?: string } {
  const action = /<FORM METHOD="POST" ACTION="([^"]+)"/.exec(html)?.[1];
  const saml = /NAME="SAMLResponse" VALUE="([^"]+)"/.exec(html)?.[1];
  const relay = /NAME="RelayState" VALUE="([^"]*)"/.exec(html)?.[1];
  if (!action || !saml) throw new Error(`not an auto-submit SAML form: ${html.slice(0, 200)}`);
  const un = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return { action: un(action), SAMLResponse: un(saml), ...(relay !== undefined ? { RelayState: un(relay) } : {}) };
}

/** The AUTH_SESSION_ID cookie a login page set, as a Cookie header value ('' when none). */
export function authSessionCookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('AUTH_SESSION_ID='))
    .join('; ');
}

/** Submits the login form of `page` as the browser that loaded it would: with its AUTH_SESSION_ID cookie. */
export async function submitLogin(page: Response, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const html = await page.text();
  return postForm(loginFormAction(html), fields, { cookie: authSessionCookieOf(page), ...headers });
}

/** IdP-initiated SSO as a browser does it: the SSO URL (other fields, e.g. RelayState, go with it), then its login form. */
export async function ssoLogin(ssoUrl: string, fields: Record<string, string>): Promise<Response> {
  const { username = '', password = '', ...rest } = fields;
  const page = await postForm(ssoUrl, rest);
  return submitLogin(page, { username, password });
}

export function loginFormAction(html: string): string {
  const m = /<form id="kc-form-login" action="([^"]+)"/.exec(html);
  if (!m) throw new Error('no login form');
  return m[1]!.replace(/&amp;/g, '&');
}

/** The realm's signing certificate PEM, from the descriptor. */
export function certPemFromDescriptor(xml: string, index = 0): string {
  const certs = [...xml.matchAll(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((m) => m[1]!);
  const b64 = certs[index]!;
  return `-----BEGIN CERTIFICATE-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

/** Runs the real `xmlsec1 --verify`; `signature` picks which ds:Signature (response or assertion). */
export function xmlsecVerify(xml: string, certPem: string, signature: 'response' | 'assertion'): { ok: boolean; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-xmlsec-'));
  try {
    writeFileSync(path.join(dir, 'doc.xml'), xml);
    writeFileSync(path.join(dir, 'cert.pem'), certPem);
    const xpath = signature === 'response' ? "/*[local-name()='Response']/*[local-name()='Signature']" : "//*[local-name()='Assertion']/*[local-name()='Signature']";
    const r = spawnSync(
      '/usr/bin/xmlsec1',
      [
        '--verify',
        '--id-attr:ID',
        'urn:oasis:names:tc:SAML:2.0:protocol:Response',
        '--id-attr:ID',
        'urn:oasis:names:tc:SAML:2.0:assertion:Assertion',
        '--pubkey-cert-pem',
        path.join(dir, 'cert.pem'),
        '--node-xpath',
        xpath,
        path.join(dir, 'doc.xml'),
      ],
      { encoding: 'utf8' },
    );
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function keyFiles(dir: string): string[] {
  return readdirSync(path.join(dir, 'keys')).filter((f) => f.endsWith('.key.pem'));
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
