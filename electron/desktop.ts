/**
 * The desktop app's logic: one window on the packaged renderer, the host in this process, and
 * the contract carried over IPC. It takes the few Electron APIs it uses as a parameter, so a
 * test can run it against a small fake; `main.ts` passes the real module.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { createHost, type Host, type HostOptions } from '../core/host/host.js';
import type { CallOutcome } from '../core/host/dispatch.js';
import { createLogger, type Logger } from '../core/common/log.js';
import type { ServiceName } from '../core/common/service.js';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, APP_START_URL, isAppUrl, serveAppRequest } from './app-protocol.js';
import { mainWindowOptions } from './window-options.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './preload-api.js';
import { captureSessions, createElectronCapture, type CaptureElectronApis } from './capture.js';

/** The part of a webContents the app touches. */
export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  isDestroyed(): boolean;
  /** The contents' session: a capture window's is one of `captureSessions`. */
  readonly session?: object;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  isDestroyed(): boolean;
}

export interface IpcInvokeEvent {
  readonly senderFrame: { readonly url: string } | null;
}

/** The Electron APIs the desktop app uses. */
export interface ElectronApis {
  app: {
    whenReady(): Promise<unknown>;
    on(event: 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
    quit(): void;
  };
  BrowserWindow: {
    new (options: BrowserWindowConstructorOptions): WindowLike;
    getAllWindows(): WindowLike[];
  };
  ipcMain: {
    handle(channel: string, handler: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
    removeHandler(channel: string): void;
  };
  protocol: {
    registerSchemesAsPrivileged(schemes: (typeof APP_SCHEME_PRIVILEGES)[]): void;
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
  };
  /** Electron's safeStorage: OIDC client secrets are kept encrypted by the OS. */
  safeStorage?: { isEncryptionAvailable(): boolean; encryptString(plain: string): Buffer; decryptString(cipher: Buffer): string };
  session: {
    defaultSession: {
      setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
    };
    /** For the SAML capture window's own partition (./capture.ts). */
    fromPartition?: CaptureElectronApis['session']['fromPartition'];
  };
}

export interface DesktopOptions {
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** The bundled preload (dist/electron/preload.cjs). */
  preloadPath: string;
  iconPath?: string;
  dataDir: string;
  /** `--port-base` for this run (tests). */
  portBase?: number;
  env?: NodeJS.ProcessEnv;
  log?: Logger;
  /** Start the embedded services once the window is up (default true). */
  autoStart?: boolean;
  /** Which services to start (default: all that exist). */
  only?: ServiceName[];
  /** Replaces the host's service registry (tests). */
  registry?: HostOptions['registry'];
}

export interface Desktop {
  readonly host: Host;
  readonly window: WindowLike;
  /** Stops the services and frees the IPC handler; safe to call twice. */
  shutdown(): Promise<void>;
}

/** Call before `app` is ready (Electron requires schemes to be registered first). */
export function registerAppScheme(electron: Pick<ElectronApis, 'protocol'>): void {
  electron.protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/**
 * No navigation away from the packaged renderer, no new windows, no webviews. A SAML capture
 * window browses the IdP, so it may navigate; it still opens no windows and attaches no webviews.
 */
export function hardenContents(contents: WebContentsLike, log: Logger): void {
  if (contents.session && captureSessions.has(contents.session)) {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      log.warn('blocked a new window from the sign-in window', { url });
      return { action: 'deny' };
    });
    return;
  }
  const block = (event: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    log.warn('blocked navigation away from the app', { url });
  };
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    log.warn('blocked a new window', { url });
    return { action: 'deny' };
  });
}

export async function startDesktop(electron: ElectronApis, opts: DesktopOptions): Promise<Desktop> {
  const { app, BrowserWindow, ipcMain, protocol, session } = electron;
  const log = opts.log ?? createLogger({ scope: 'desktop' });

  app.on('web-contents-created', (_event, contents) => hardenContents(contents, log));
  await app.whenReady();

  // The renderer needs no camera, microphone, notifications, geolocation…
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(opts.rendererDir, request));

  const host = await createHost({
    dataDir: opts.dataDir,
    env: opts.env ?? process.env,
    log,
    ...(opts.portBase !== undefined ? { portBase: opts.portBase } : {}),
    ...(opts.registry ? { registry: opts.registry } : {}),
    ...(electron.safeStorage ? { secretCipher: electron.safeStorage } : {}),
    // The SAML capture in a Loupe window of its own (webRequest on its own session partition).
    ...(session.fromPartition
      ? { samlCapture: createElectronCapture({ BrowserWindow: BrowserWindow as unknown as CaptureElectronApis['BrowserWindow'], session: { fromPartition: session.fromPartition.bind(session) } }) }
      : {}),
  });

  ipcMain.handle(INVOKE_CHANNEL, async (event, method, params): Promise<CallOutcome> => {
    // Only the packaged renderer may call the host, never a page that got in some other way.
    if (!isAppUrl(event.senderFrame?.url)) {
      log.warn('refused an IPC call from a foreign page', { url: event.senderFrame?.url ?? '(none)' });
      return { ok: false, error: { code: 'unauthorized', message: 'only the Loupe window may call the host' } };
    }
    if (typeof method !== 'string') return { ok: false, error: { code: 'bad_params', message: 'method must be a string' } };
    return host.call(method, params);
  });

  const offEvents = host.on((event, payload) => {
    for (const w of BrowserWindow.getAllWindows()) {
      if (!w.isDestroyed() && !w.webContents.isDestroyed()) w.webContents.send(EVENT_CHANNEL, event, payload);
    }
  });

  const window = new BrowserWindow(mainWindowOptions(opts.preloadPath, opts.iconPath));
  window.once('ready-to-show', () => window.show());
  await window.loadURL(APP_START_URL);

  let closing: Promise<void> | null = null;
  const shutdown = () =>
    (closing ??= (async () => {
      offEvents();
      ipcMain.removeHandler(INVOKE_CHANNEL);
      await host.close();
    })());

  let quitting = false;
  const quit = () => {
    if (quitting) return;
    quitting = true;
    shutdown()
      .catch((err) => log.error('shutdown failed', { message: (err as Error).message }))
      .finally(() => app.quit());
  };
  // Closing the window ends Loupe on every platform: the services must not outlive it.
  app.on('window-all-closed', quit);
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quit();
  });

  if (opts.autoStart ?? true) {
    host.startServices(opts.only).catch((err) => log.error('starting the services failed', { message: (err as Error).message }));
  }
  return { host, window, shutdown };
}
