/**
 * A small fake of the Electron APIs `startDesktop` uses. It records what the app asked for
 * (window options, handlers, sent events) and lets a test play Electron's part: fire app
 * events, send an IPC call from a given page, request an app:// URL.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { ElectronApis, IpcInvokeEvent, WebContentsLike, WindowLike } from '../desktop.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of many shapes, like Node's EventEmitter
type Listener = (...args: any[]) => void;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    const wrapped: Listener = (...args) => {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== wrapped));
      listener(...args);
    };
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;
  destroyed = false;
  send(channel: string, ...args: unknown[]) {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: NonNullable<FakeWebContents['windowOpenHandler']>) {
    this.windowOpenHandler = handler;
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** Plays a navigation; returns whether the app prevented it. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export function createFakeElectron() {
  const app = new Emitter();
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const state = {
    quitCalls: 0,
    privilegedSchemes: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
    ipcHandlers: new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>(),
    permissionHandler: null as null | ((contents: unknown, permission: string, cb: (granted: boolean) => void) => void),
    windows: [] as FakeWindow[],
  };

  class FakeWindow extends Emitter implements WindowLike {
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    shown = false;
    constructor(readonly options: BrowserWindowConstructorOptions) {
      super();
      state.windows.push(this);
      // Electron fires web-contents-created for every new webContents.
      app.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string) {
      this.loaded.push(url);
      this.emit('ready-to-show');
    }
    show() {
      this.shown = true;
    }
    isDestroyed() {
      return false;
    }
    static getAllWindows() {
      return state.windows;
    }
  }

  const electron: ElectronApis = {
    app: {
      whenReady: () => ready,
      on: (event: string, listener: Listener) => app.on(event, listener),
      quit: () => {
        state.quitCalls++;
      },
    } as ElectronApis['app'],
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle: (channel, handler) => {
        if (state.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        state.ipcHandlers.set(channel, handler);
      },
      removeHandler: (channel) => {
        state.ipcHandlers.delete(channel);
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => {
        state.privilegedSchemes.push(...schemes);
      },
      handle: (scheme, handler) => {
        state.protocolHandlers.set(scheme, handler);
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => {
          state.permissionHandler = handler;
        },
      },
    },
  };

  return {
    electron,
    state,
    /** Electron's 'ready'. */
    ready: () => readyResolve(),
    /** Fires an app event the way Electron would; returns whether a listener prevented it. */
    emitApp(event: string, ...args: unknown[]): boolean {
      let prevented = false;
      app.emit(event, { preventDefault: () => (prevented = true) }, ...args);
      return prevented;
    },
    /** An `ipcRenderer.invoke` from a page at `frameUrl`. */
    async invoke(channel: string, frameUrl: string | null, ...args: unknown[]) {
      const handler = state.ipcHandlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args);
    },
    async fetchApp(url: string, init?: RequestInit) {
      const handler = state.protocolHandlers.get(new URL(url).protocol.slice(0, -1));
      if (!handler) throw new Error(`no handler for ${url}`);
      return handler(new Request(url, init));
    },
  };
}
