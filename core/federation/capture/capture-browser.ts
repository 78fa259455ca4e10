/**
 * The browser a sign-in happens in: Chromium through playwright-core on a throw-away profile
 * (none of the user's cookies, nothing left behind), visible where there is a display, and with
 * `cdpPort` also listening for the DevTools protocol on 127.0.0.1 so a test can drive the real
 * login page in it. The SAML capture and the OIDC code flow both open it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CaptureError } from './types.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Whether a visible window can be shown here: macOS and Windows always, Linux with X11 or Wayland. */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** LOUPE_CAPTURE_CDP_PORT, checked: a port number or nothing. */
export function cdpPortFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.LOUPE_CAPTURE_CDP_PORT;
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CaptureError('launch_failed', `LOUPE_CAPTURE_CDP_PORT must be a port number (1–65535), got "${raw}"`);
  return port;
}

export interface CaptureBrowserOptions {
  headless?: boolean;
  executablePath?: string;
  cdpPort?: number;
  ignoreHttpsErrors?: boolean;
}

export interface CaptureBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openCaptureBrowser(opts: CaptureBrowserOptions): Promise<CaptureBrowser> {
  const headless = opts.headless ?? true;
  const executablePath = opts.executablePath ?? CHROMIUM_PATH;
  const profile = await mkdtemp(path.join(tmpdir(), 'loupe-capture-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless,
      args: [...CHROMIUM_ARGS, ...(opts.cdpPort ? ['--remote-debugging-address=127.0.0.1', `--remote-debugging-port=${opts.cdpPort}`] : [])],
      ignoreHTTPSErrors: opts.ignoreHttpsErrors ?? false,
      viewport: { width: 960, height: 760 },
      timeout: 60_000,
    });
  } catch (err) {
    await rm(profile, { recursive: true, force: true }).catch(() => {});
    const hint = !headless && !hasDisplay() ? ' There is no display (DISPLAY is not set) for a visible window; run on a desktop or use headless for a scripted capture.' : '';
    throw new CaptureError('launch_failed', `Could not start Chromium at ${executablePath}: ${String((err as Error)?.message ?? err).split('\n')[0]}${hint}`);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true }).catch(() => {});
    },
  };
}
