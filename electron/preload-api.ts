/**
 * What the preload exposes to the page as `window.loupe`: one `invoke` and one `subscribe`.
 * `invoke` resolves with the host's `{ ok, result | error }` envelope instead of rejecting,
 * because an Error that crosses contextBridge keeps only its message and the page needs the
 * error code and the per-parameter issues. The renderer's bridge turns `ok: false` into an error.
 */
export const INVOKE_CHANNEL = 'loupe:invoke';
export const EVENT_CHANNEL = 'loupe:event';

/** The part of ipcRenderer the preload uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface DesktopApi {
  invoke(method: string, params: unknown): Promise<unknown>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

export function createDesktopApi(ipc: IpcRendererLike): DesktopApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // One IPC listener for all events; the page's listeners never see the IPC event object
  // (it would hand the page a way to reach ipcRenderer).
  ipc.on(EVENT_CHANNEL, (_event, name, payload) => {
    if (typeof name !== 'string') return;
    for (const l of listeners.get(name) ?? []) {
      try {
        l(payload);
      } catch (err) {
        console.error(`loupe: a listener for ${name} failed`, err);
      }
    }
  });
  return Object.freeze({
    invoke(method: string, params: unknown) {
      if (typeof method !== 'string') return Promise.reject(new TypeError('method must be a string'));
      return ipc.invoke(INVOKE_CHANNEL, method, params ?? {});
    },
    subscribe(event: string, listener: (payload: unknown) => void) {
      if (typeof event !== 'string' || typeof listener !== 'function') throw new TypeError('subscribe(event: string, listener: function)');
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  });
}
