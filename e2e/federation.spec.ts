/**
 * The Federation workbench in Chromium against the real `loupe serve` with the embedded IdP and
 * token service. The capture browser Loupe opens listens for DevTools on LOUPE_CAPTURE_CDP_PORT;
 * the test attaches to it and signs in on the IdP's real login page, as a person would.
 * ~/.aws files go to a temporary folder (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE).
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoupeServe, type LoupeServe } from './loupe-serve.js';
import { freePort } from '../core/common/testing/free-port.js';
import { logInOverCdp } from '../core/federation/capture/testing/log-in-over-cdp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
/** `LOUPE_SCREENSHOTS=docs` also refreshes the README's screenshots. */
const DOC_SHOTS = process.env.LOUPE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs', 'screenshots') : null;
/** The ones the README shows. */
const README_SHOTS = ['federation-1440-light', 'federation-1440-dark', 'federation-1024-light', 'federation-no-session-name', 'federation-oidc'];
const READONLY = 'arn:aws:iam::123456789012:role/LoupeReadOnly';

test.describe.configure({ mode: 'serial' });

let loupe: LoupeServe;
let cdpPort: number;
let awsDir: string;

test.beforeAll(async () => {
  cdpPort = await freePort();
  awsDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-aws-'));
  process.env.LOUPE_CAPTURE_CDP_PORT = String(cdpPort);
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(awsDir, 'credentials');
  process.env.AWS_CONFIG_FILE = path.join(awsDir, 'config');
  loupe = await startLoupeServe();
  mkdirSync(SHOTS, { recursive: true });
  // The token service trusts the IdP once it has read its metadata; wait for that.
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${loupe.origin}/api/federation.stsAccount`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loupe-token': loupe.token }, body: '{}' });
    const a = (await res.json()) as { seedPending?: string[] };
    if (res.ok && a.seedPending?.length === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  await loupe?.stop();
});

/** The IdP's SAML login page in the capture browser. */
const SAML_LOGIN = /\/realms\/federation\/protocol\/saml\/clients\//;

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
  if (DOC_SHOTS && README_SHOTS.includes(name)) {
    mkdirSync(DOC_SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(DOC_SHOTS, `${name}.png`) });
  }
}

async function samlSignIn(page: Page, user: string, client = 'cloud') {
  await page.getByLabel('SAML sign-in page').selectOption(client);
  await page.getByRole('button', { name: 'Sign in with SAML' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Starting|Opened|waiting/i }).first()).toBeVisible();
  await logInOverCdp(cdpPort, user, { page: SAML_LOGIN });
  await expect(page.getByRole('heading', { name: 'Assertion', level: 2 })).toBeVisible({ timeout: 30_000 });
}

test('alice signs in with SAML on the real IdP page, picks LoupeReadOnly, gets credentials and verifies them', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(loupe.openUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Federation' })).toBeVisible();
  await expect(page.getByText('Nothing captured yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get credentials' })).toBeDisabled();
  await shoot(page, 'federation-empty');

  await samlSignIn(page, 'alice');
  const roles = page.getByRole('radiogroup', { name: 'Role' });
  await expect(roles.getByRole('radio')).toHaveCount(2);
  await expect(roles.getByRole('radio', { name: /LoupeAdmin/ })).toBeVisible();
  await expect(page.getByText('Signature verified')).toBeVisible();
  await expect(page.getByText('alice', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('saml-xml')).toContainText('samlp:Response');

  await roles.getByRole('radio', { name: /LoupeReadOnly/ }).check();
  const creds = page.getByRole('region', { name: 'Credentials' });
  await creds.getByRole('button', { name: 'Get credentials' }).click();
  await expect(creds.getByTestId('access-key-id')).toHaveText(/^ASIA[A-Z0-9]{16}$/);
  await expect(creds.getByTestId('secret-access-key')).toHaveText(/^•+$/);
  await expect(creds.getByTestId('expiry')).toHaveText(/\d+:\d\d(:\d\d)? left/);
  await creds.getByRole('button', { name: 'Verify' }).click();
  await expect(creds.getByText('arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/alice').last()).toBeVisible();
  await shoot(page, 'federation-credentials-light');

  // Copy as a credentials-file profile: the preview shows it, secret masked.
  await creds.getByText('credentials file').click();
  await expect(creds.getByLabel('Copy preview')).toContainText('[loupe]\naws_access_key_id = ASIA');
  await creds.getByRole('button', { name: 'Reveal' }).click();
  await expect(creds.getByTestId('secret-access-key')).not.toHaveText(/•/);
  await creds.getByRole('button', { name: 'Hide' }).click();

  // Write profile: 0600, credential_process in the config file, saved as a sign-in profile.
  await creds.getByLabel('Profile name').fill('loupe-ro');
  await creds.getByRole('button', { name: 'Write profile' }).click();
  await expect(creds.getByText(/Wrote \[loupe-ro\] to/)).toBeVisible();
  const file = path.join(awsDir, 'credentials');
  expect(readFileSync(file, 'utf8')).toMatch(/^\[loupe-ro\]\naws_access_key_id = ASIA/);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(path.join(awsDir, 'config'), 'utf8')).toMatch(/\[profile loupe-ro\]\ncredential_process = .*credential-process --profile loupe-ro/);
});

test('screenshots at 1440x900 and 1024x700, light and dark', async ({ browser }) => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: w, height: h } });
      const page = await context.newPage();
      await page.goto(loupe.openUrl);
      // The profile saved above is preselected: one click signs in again.
      await expect(page.getByLabel('Saved profile')).toHaveValue('loupe-ro');
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await logInOverCdp(cdpPort, 'alice', { page: SAML_LOGIN });
      await expect(page.getByRole('radiogroup', { name: 'Role' }).getByRole('radio', { name: /LoupeReadOnly/ })).toBeChecked();
      await page.getByRole('button', { name: 'Get credentials' }).click();
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByText('arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/alice').last()).toBeVisible();
      await expect(page.locator('.monaco-editor').first()).toBeVisible();
      await shoot(page, `federation-${w}-${scheme}`);
      await context.close();
    }
  }
});

test('bob sees only LoupeReadOnly', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await samlSignIn(page, 'bob');
  const roles = page.getByRole('radiogroup', { name: 'Role' });
  await expect(roles.getByRole('radio')).toHaveCount(1);
  await expect(roles.getByRole('radio', { name: /LoupeReadOnly/ })).toBeChecked();
});

test('the cloud-no-session-name client: the missing RoleSessionName is named before the call, and STS error is shown with its fix', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(loupe.openUrl);
  await samlSignIn(page, 'alice', 'cloud-no-session-name');
  await expect(page.getByRole('list', { name: 'What the token service will refuse' })).toContainText('No RoleSessionName attribute');
  await page.getByRole('radiogroup', { name: 'Role' }).getByRole('radio', { name: /LoupeReadOnly/ }).check();
  const creds = page.getByRole('region', { name: 'Credentials' });
  await creds.getByRole('button', { name: 'Get credentials' }).click();
  const alert = creds.getByRole('alert');
  await expect(alert).toContainText('AssumeRoleWithSAML failed');
  await expect(alert).toContainText('InvalidIdentityToken');
  await expect(alert).toContainText('RoleSessionName is required in AuthnResponse');
  await expect(alert).toContainText('Fix: Add a RoleSessionName mapper');
  await shoot(page, 'federation-no-session-name');
});

test('an IdP error page ends the capture with the IdP words', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await page.getByLabel('SAML sign-in page').selectOption('__other__');
  const api = await fetch(`${loupe.origin}/api/federation.idpUrls`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loupe-token': loupe.token }, body: '{"realm":"federation"}' });
  const { realmUrl } = (await api.json()) as { realmUrl: string };
  await page.getByLabel('SSO URL').fill(`${realmUrl}/protocol/saml/clients/no-such-client`);
  await page.getByRole('button', { name: 'Sign in with SAML' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The SAML sign-in did not finish' });
  await expect(alert).toContainText('Client not found.');
  await expect(alert).toContainText('idp_error');
});

test('OIDC password grant: claims shown, then AssumeRoleWithWebIdentity and Verify; a client without direct grants gets the fix', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(loupe.openUrl);
  await page.getByRole('button', { name: 'Sign in with OIDC' }).click();
  const form = page.getByRole('form', { name: 'OIDC sign-in' });
  await form.getByLabel('Client', { exact: true }).selectOption('loupe-web');
  await form.getByLabel('Client secret').fill('loupe-web-secret');
  await form.getByLabel('Username').fill('alice');
  await form.getByLabel('Password').fill('alice');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The OIDC sign-in failed' });
  await expect(alert).toContainText('unauthorized_client');
  await expect(alert).toContainText('Client not allowed for direct access grants');
  await expect(alert).toContainText('Enable Direct access grants for this client');

  await form.getByLabel('Client', { exact: true }).selectOption('loupe-cli');
  await form.getByLabel('Client secret').fill('loupe-cli-secret');
  await form.getByLabel('Password').fill('alice');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByLabel('Access token claims')).toContainText('"preferred_username": "alice"');
  await page.getByRole('radiogroup', { name: 'Role' }).getByRole('radio', { name: /LoupeReadOnly/ }).check();
  const creds = page.getByRole('region', { name: 'Credentials' });
  await creds.getByRole('button', { name: 'Get credentials' }).click();
  await expect(creds.getByTestId('access-key-id')).toHaveText(/^ASIA/);
  await creds.getByRole('button', { name: 'Verify' }).click();
  await expect(creds.getByText(`arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/alice`).last()).toBeVisible();
  await shoot(page, 'federation-oidc');
});

test('OIDC in the browser: authorization code with PKCE on the real IdP page, loopback redirect, then web identity for bob', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await page.getByRole('button', { name: 'Sign in with OIDC' }).click();
  const form = page.getByRole('form', { name: 'OIDC sign-in' });
  await form.getByLabel('Client', { exact: true }).selectOption('loupe-desktop');
  await form.getByRole('button', { name: 'Sign in in the browser' }).click();
  await logInOverCdp(cdpPort, 'bob', { page: /\/protocol\/openid-connect\/auth/ });
  await expect(page.getByLabel('Access token claims')).toContainText('"preferred_username": "bob"');
  await expect(page.getByLabel('Access token claims')).toContainText('"azp": "loupe-desktop"');
  await page.getByRole('radiogroup', { name: 'Role' }).getByRole('radio', { name: /LoupeReadOnly/ }).check();
  const creds = page.getByRole('region', { name: 'Credentials' });
  await creds.getByRole('button', { name: 'Get credentials' }).click();
  await creds.getByRole('button', { name: 'Verify' }).click();
  await expect(creds.getByText(`${READONLY.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/')}/bob`).last()).toBeVisible();
});
