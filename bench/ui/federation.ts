/**
 * bench:ui federation — from the IdP login page's submit to the credentials shown in the
 * Credentials region, in Debian's Chromium against a real `loupe serve` with the embedded IdP
 * and token service. Each round: Sign in with SAML, type bob's name and password on the real
 * login page inside the capture browser (not timed), then time the submit → capture → assertion
 * → Get credentials (AssumeRoleWithSAML) → access key on screen. Median of 10, target < 1 s.
 * What is on screen is checked in the page (./painted-at.ts), not by Playwright's polling, which
 * waits up to 500 ms between looks. `LOUPE_BENCH_FED_ROUNDS` changes the number of rounds.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { startLoupeServe } from '../../e2e/loupe-serve.js';
import { freePort } from '../../core/common/testing/free-port.js';
import { formatMs, formatTable, positiveInt } from '../bench-util.js';
import { paintedAt } from './painted-at.js';

const CHROMIUM = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TARGET_MS = 1000;
const ROLE_CHECKED = `() => !!document.querySelector('[role="radiogroup"][aria-label="Role"] input[type="radio"]:checked')`;
const accessKeyShown = (previous: string) => `() => { const k = document.querySelector('[data-testid="access-key-id"]')?.textContent ?? ''; return /^ASIA/.test(k) && k !== ${JSON.stringify(previous)}; }`;

async function loginPage(cdpPort: number): Promise<{ cdp: Browser; page: Page }> {
  for (let i = 0; i < 300; i++) {
    const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`).catch(() => undefined);
    const page = cdp?.contexts().flatMap((c) => c.pages()).find((p) => p.url().includes('/protocol/saml/clients/'));
    if (cdp && page) return { cdp, page };
    await cdp?.close().catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the IdP login page never showed in the capture browser');
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function run(): Promise<void> {
  const rounds = positiveInt(process.env.LOUPE_BENCH_FED_ROUNDS, 'LOUPE_BENCH_FED_ROUNDS', 10);
  const cdpPort = await freePort();
  process.env.LOUPE_CAPTURE_CDP_PORT = String(cdpPort);
  const loupe = await startLoupeServe();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const ui = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await ui.goto(loupe.openUrl);
    await ui.getByRole('button', { name: 'Sign in with SAML' }).waitFor();
    // The token service trusts the IdP once it has read its metadata.
    for (let i = 0; i < 100; i++) {
      const a = await ui.evaluate(async (token) => (await fetch('/api/federation.stsAccount', { method: 'POST', headers: { 'content-type': 'application/json', 'x-loupe-token': token }, body: '{}' })).json(), loupe.token);
      if ((a as { seedPending?: string[] }).seedPending?.length === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const times: number[] = [];
    const split = { roles: [] as number[], credentials: [] as number[] };
    let previousKey = '';
    for (let i = 0; i < rounds + 1; i++) {
      await ui.getByRole('button', { name: 'Sign in with SAML' }).click();
      const { cdp, page } = await loginPage(cdpPort);
      await page.locator('#username').waitFor();
      await page.fill('#username', 'bob');
      await page.fill('#password', 'bob');
      const start = Date.now();
      await page.click('#kc-login', { noWaitAfter: true });
      const rolesAt = await paintedAt(ui, ROLE_CHECKED);
      await ui.getByRole('button', { name: 'Get credentials' }).click();
      const shownAt = await paintedAt(ui, accessKeyShown(previousKey));
      previousKey = (await ui.getByTestId('access-key-id').textContent()) ?? '';
      await cdp.close().catch(() => {});
      // The first round warms the host's lazy imports and Chromium's caches; it is not counted.
      if (i > 0) {
        times.push(shownAt - start);
        split.roles.push(rolesAt - start);
        split.credentials.push(shownAt - rolesAt);
      }
    }
    const m = median(times);
    process.stdout.write(
      formatTable(
        ['measure', 'median', 'min', 'max', 'rounds', 'target'],
        [
          ['login submit → credentials shown (SAML, bob)', formatMs(m), formatMs(Math.min(...times)), formatMs(Math.max(...times)), String(times.length), `< ${formatMs(TARGET_MS)}`],
          ['  submit → roles shown (IdP, capture)', formatMs(median(split.roles)), formatMs(Math.min(...split.roles)), formatMs(Math.max(...split.roles)), String(times.length), ''],
          ['  roles → credentials shown (click, STS)', formatMs(median(split.credentials)), formatMs(Math.min(...split.credentials)), formatMs(Math.max(...split.credentials)), String(times.length), ''],
        ],
        ['left', 'right', 'right', 'right', 'right', 'right'],
      ) + '\n',
    );
    process.stdout.write(`${m < TARGET_MS ? 'within' : 'OVER'} target: median ${formatMs(m)} against ${formatMs(TARGET_MS)}\n`);
  } finally {
    await browser.close().catch(() => {});
    await loupe.stop();
  }
}
