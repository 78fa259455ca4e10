/**
 * The shell in Chromium against the real `loupe serve`: the printed URL opens the app, the three
 * workbenches and the live service states show, settings survive a reload and a restart, and the
 * API refuses requests that do not come from the page it served.
 */
import { test, expect, type Page } from '@playwright/test';
import http from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoupeServe, type LoupeServe } from './loupe-serve.js';
import { occupy } from '../core/common/testing/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
/** `LOUPE_SCREENSHOTS=docs npm run e2e` also refreshes the README's screenshots. */
const DOC_SHOTS = process.env.LOUPE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs', 'screenshots') : null;

interface ServiceStatus {
  name: string;
  state: string;
  url: string;
  mode: string;
}

test.describe.configure({ mode: 'serial' });

let loupe: LoupeServe;

test.beforeAll(async () => {
  loupe = await startLoupeServe();
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await loupe?.stop();
});

/** A contract call the way the renderer's bridge makes it. */
async function api<T = unknown>(method: string, params: unknown = {}): Promise<T> {
  const res = await fetch(`${loupe.origin}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loupe-token': loupe.token },
    body: JSON.stringify(params),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}

/** A raw request, so a test can send any Host and Origin header (fetch would not). */
function rawRequest(opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  const url = new URL(loupe.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: Number(url.port), method: opts.method ?? 'POST', path: opts.path, headers: opts.headers, setHost: !opts.headers?.host },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body ?? '{}');
  });
}

function statusChip(page: Page, name: string) {
  return page.getByRole('list', { name: 'Service states' }).locator(`[data-service="${name}"]`);
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  if (DOC_SHOTS && name.startsWith('shell')) {
    mkdirSync(DOC_SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(DOC_SHOTS, `${name}.png`) });
  }
}

test('the printed URL opens the shell, and the token leaves the address bar', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Federation' })).toBeVisible();
  await expect(page).toHaveURL(`${loupe.origin}/`);
  // The token stays with the tab: a reload still reaches the host.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Browser · Connected' })).toBeVisible();
});

test('the sidebar holds the three workbenches, and each page says what it does and which services it uses', async ({ page }) => {
  await page.goto(loupe.openUrl);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const expected = [
    // Relevance names its search server in its connection bar rather than with a service card
    { name: 'Federation', services: ['idp', 'sts'], says: /AssumeRoleWithSAML/ },
    { name: 'Relevance', services: [], says: /Search server: embedded engine/ },
    { name: 'CDC', services: ['connect', 'clickhouse'], says: /OPTIMIZE TABLE … FINAL CLEANUP/ },
  ];
  for (const wb of expected) {
    await nav.getByRole('link', { name: wb.name }).click();
    await expect(nav.getByRole('link', { name: wb.name })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: wb.name })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(wb.says);
    const cards = page.locator('.service-card');
    await expect(cards).toHaveCount(wb.services.length);
    for (const name of wb.services) await expect(page.locator(`.service-card[data-service="${name}"]`)).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Federation' })).not.toHaveAttribute('aria-current', 'page');
});

test('the status bar shows each service in the state the host reports', async ({ page }) => {
  await page.goto(loupe.openUrl);
  const services = await api<ServiceStatus[]>('services.status');
  expect(services.map((s) => s.name)).toEqual(['search', 'idp', 'sts', 'connect', 'clickhouse']);
  for (const s of services) await expect(statusChip(page, s.name)).toHaveAttribute('data-state', s.state);
  // Engines that exist run; engines not built yet are listed as not available, not faked.
  for (const s of services) expect(['running', 'unavailable']).toContain(s.state);
  expect(services.some((s) => s.state === 'running')).toBe(true);

  await page.getByRole('link', { name: 'Services' }).first().click();
  for (const s of services) {
    const row = page.locator(`tr[data-service="${s.name}"]`);
    await expect(row).toContainText(s.url);
  }
});

test('screenshots of the shell, light and dark', async ({ browser }) => {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(loupe.openUrl);
    await expect(page.getByRole('status').filter({ hasText: 'Browser · Connected' })).toBeVisible();
    await expect(page.locator('.service-card')).toHaveCount(2);
    // The OS preference decides the palette while the setting is "system".
    await expect(page.locator('body')).toHaveCSS('background-color', scheme === 'light' ? 'rgb(245, 246, 248)' : 'rgb(21, 23, 27)');
    await shoot(page, scheme === 'light' ? 'shell' : 'shell-dark');
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await shoot(page, `settings-${scheme}`);
    await context.close();
  }
});

test('stopping and starting a service from the UI updates every view live', async ({ page }) => {
  await page.goto(loupe.openUrl);
  const services = await api<ServiceStatus[]>('services.status');
  // The lightest running service; the token service when it is there.
  const target = services.find((s) => s.name === 'sts' && s.state === 'running') ?? services.find((s) => s.state === 'running');
  expect(target, 'at least one embedded service runs').toBeTruthy();
  const name = target!.name;
  const workbench = { search: 'Relevance', idp: 'Federation', sts: 'Federation', connect: 'CDC', clickhouse: 'CDC' }[name]!;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: workbench }).click();
  const card = page.locator(`.service-card[data-service="${name}"]`);
  await expect(card.locator('[data-state]')).toHaveAttribute('data-state', 'running');

  await card.getByRole('button', { name: /^Stop / }).click();
  await expect(card.locator('[data-state]')).toHaveAttribute('data-state', 'stopped');
  await expect(statusChip(page, name)).toHaveAttribute('data-state', 'stopped');
  await expect(fetch(target!.url)).rejects.toThrow();

  await card.getByRole('button', { name: /^Start / }).click();
  await expect(card.locator('[data-state]')).toHaveAttribute('data-state', 'running');
  await expect(statusChip(page, name)).toHaveAttribute('data-state', 'running');

  // A change made by another client (here: the API directly) reaches the page over the event stream.
  await api('services.stop', { name });
  await expect(statusChip(page, name)).toHaveAttribute('data-state', 'stopped');
  await api('services.start', { name });
  await expect(statusChip(page, name)).toHaveAttribute('data-state', 'running');
  await shoot(page, 'service-restarted');
});

test('a port taken by another program: Start fails with the host\'s error naming the service, the port and the fix', async ({ page }) => {
  const services = await api<(ServiceStatus & { port?: number })[]>('services.status');
  const target = services.find((s) => s.name === 'sts' && s.state === 'running') ?? services.find((s) => s.state === 'running' && s.port);
  expect(target, 'at least one embedded service runs').toBeTruthy();
  const { name, port } = target!;
  await api('services.stop', { name });
  const release = await occupy(port!);
  try {
    await page.goto(`${loupe.openUrl}#/services`);
    const row = page.locator(`tr[data-service="${name}"]`);
    await row.getByRole('button', { name: /^Start / }).click();
    await expect(row.locator('[data-state]')).toHaveAttribute('data-state', 'failed');
    await expect(row).toContainText(`port ${port} on 127.0.0.1 is already in use`);
    await expect(row).toContainText(`LOUPE_${name.toUpperCase()}_PORT`);
    await expect(statusChip(page, name)).toHaveAttribute('data-state', 'failed');
    await shoot(page, 'service-port-conflict');
  } finally {
    await release();
  }
  await page.locator(`tr[data-service="${name}"]`).getByRole('button', { name: /^Start / }).click();
  await expect(statusChip(page, name)).toHaveAttribute('data-state', 'running');
});

test('a setting changed in the UI is kept after a reload and after a restart of loupe serve', async ({ page, browser }) => {
  await page.goto(`${loupe.openUrl}`);
  await page.getByRole('link', { name: 'Settings' }).click();
  const row = page.locator('fieldset[data-area="search"]');
  await row.getByText('Remote', { exact: true }).click();
  await row.getByLabel('Search remote URL').fill('http://127.0.0.1:1/');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  // The status bar follows: search now points at the remote server.
  await expect(statusChip(page, 'search')).toHaveAttribute('data-state', 'remote');

  // Theme: applies at once and is stored by the host.
  await page.getByText('Dark', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.reload();
  await expect(row.getByLabel('Search remote URL')).toHaveValue('http://127.0.0.1:1/');
  await expect(row.getByRole('radio', { name: 'Remote' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shoot(page, 'settings-saved');

  // It is on disk, not only in this tab: a fresh browser profile and a restarted server see it.
  const stored = JSON.parse(readFileSync(path.join(loupe.dataDir, 'settings.json'), 'utf8'));
  expect(stored.areas.search).toMatchObject({ mode: 'remote', remoteUrl: 'http://127.0.0.1:1/' });
  expect(stored.theme).toBe('dark');
  const dataDir = loupe.dataDir;
  expect(await loupe.stop()).toBe(0);
  loupe = await startLoupeServe({ dataDir });
  const context = await browser.newContext();
  const fresh = await context.newPage();
  await fresh.goto(`${loupe.openUrl}#/settings`);
  await expect(fresh.locator('fieldset[data-area="search"]').getByLabel('Search remote URL')).toHaveValue('http://127.0.0.1:1/');
  await expect(fresh.locator('html')).toHaveAttribute('data-theme', 'dark');
  await context.close();

  // Back to defaults for the tests after this one.
  await api('settings.update', { areas: { search: { mode: 'embedded' } }, theme: 'system' });
});

test('the host rejects bad settings and the page shows why, next to the field', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await page.getByRole('link', { name: 'Settings' }).click();
  const port = page.getByLabel('Token service port');
  await port.fill('70000');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('fieldset[data-area="sts"] .field-error')).toContainText('65535');
  await expect(port).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'The settings were not saved.' })).toBeVisible();
  await shoot(page, 'settings-invalid');

  // A remote area without a URL: refused by the host's own check.
  await page.getByRole('button', { name: 'Revert' }).click();
  const ch = page.locator('fieldset[data-area="clickhouse"]');
  await ch.getByText('Remote', { exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(ch.locator('.field-error')).toContainText('needs a URL');
  await page.getByRole('button', { name: 'Revert' }).click();

  const stored = await api<{ settings: { areas: Record<string, { port: number; mode: string }> } }>('settings.get');
  expect(stored.settings.areas.sts.port).not.toBe(70000);
  expect(stored.settings.areas.clickhouse.mode).toBe('embedded');
});

test('keyboard: a skip link first, then the sidebar, with visible focus', async ({ page }) => {
  await page.goto(loupe.openUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Federation' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Tab');
  const federation = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Federation' });
  await expect(federation).toBeFocused();
  await expect(federation).not.toHaveCSS('outline-style', 'none');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Relevance' })).toBeFocused();

  // The skip link moves focus to the page content, past the sidebar.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Relevance' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('#main :focus')).toHaveCount(1);
});

test.describe('the browser API only answers the page it served', () => {
  test('a call without the token, or with a wrong one, is refused with 401', async () => {
    const none = await fetch(`${loupe.origin}/api/services.status`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const wrong = await fetch(`${loupe.origin}/api/services.status`, { method: 'POST', body: '{}', headers: { 'x-loupe-token': 'x'.repeat(loupe.token.length) } });
    expect(wrong.status).toBe(401);
    const events = await fetch(`${loupe.origin}/api/events`);
    expect(events.status).toBe(401);
  });

  test('a call from another origin is refused, even with the token', async () => {
    const res = await rawRequest({ path: '/api/services.status', headers: { 'x-loupe-token': loupe.token, origin: 'http://evil.example', 'content-type': 'application/json' } });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'unauthorized' } });
  });

  test('a request with a foreign Host header (DNS rebinding) is refused, even with the token', async () => {
    const res = await rawRequest({ path: '/api/services.status', headers: { host: `evil.example:${new URL(loupe.origin).port}`, 'x-loupe-token': loupe.token } });
    expect(res.status).toBe(403);
    const page = await rawRequest({ method: 'GET', path: '/', headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
  });

  test('the same call with the token and the right headers is answered', async () => {
    const res = await rawRequest({ path: '/api/services.status', headers: { 'x-loupe-token': loupe.token, origin: loupe.origin, 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveLength(5);
  });

  test('a page opened without the token says it cannot reach the host', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loupe.origin + '/');
    await expect(page.getByRole('alert').filter({ hasText: 'Could not read the service states' })).toContainText('missing or wrong token');
    await expect(page.getByRole('alert').filter({ hasText: 'This page has no valid access token' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /Disconnected|Connecting/ })).toBeVisible();
    await shoot(page, 'no-token');
    await context.close();
  });
});

test('loupe serve stops cleanly on SIGTERM and frees its ports', async () => {
  const origin = loupe.origin;
  expect(await loupe.stop()).toBe(0);
  await expect(fetch(`${origin}/`)).rejects.toThrow();
});
