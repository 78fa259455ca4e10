import { describe, expect, it } from 'vitest';
import { createDesktopApi, type IpcRendererLike } from './preload-api.js';

/** The part of ipcRenderer the preload uses, recording calls and letting the test send events. */
function fakeIpcRenderer() {
  const calls: unknown[][] = [];
  const listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      calls.push([channel, ...args]);
      return { ok: true, result: { echoed: args } };
    },
    on: (channel, listener) => listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
  };
  const emit = (channel: string, ...args: unknown[]) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'ipc-internals' }, ...args);
  };
  return { ipc, calls, emit, listeners };
}

describe('window.loupe (the preload API)', () => {
  it('invoke sends the method and params on loupe:invoke and hands back the host envelope', async () => {
    const { ipc, calls } = fakeIpcRenderer();
    const api = createDesktopApi(ipc);
    expect(await api.invoke('services.status', {})).toEqual({ ok: true, result: { echoed: ['services.status', {}] } });
    await api.invoke('settings.get', undefined);
    expect(calls).toEqual([
      ['loupe:invoke', 'services.status', {}],
      ['loupe:invoke', 'settings.get', {}],
    ]);
  });

  it('subscribe delivers only the named event, only its payload, until unsubscribed', () => {
    const { ipc, emit, listeners } = fakeIpcRenderer();
    const api = createDesktopApi(ipc);
    const got: unknown[][] = [];
    const off = api.subscribe('services.changed', (...args) => got.push(args));
    emit('loupe:event', 'services.changed', [{ name: 'search', state: 'running' }]);
    emit('loupe:event', 'settings.changed', { theme: 'dark' });
    off();
    emit('loupe:event', 'services.changed', []);
    // The page never receives the IPC event object (it would expose ipcRenderer's sender).
    expect(got).toEqual([[[{ name: 'search', state: 'running' }]]]);
    // One IPC listener serves every subscription.
    expect(listeners.get('loupe:event')).toHaveLength(1);
  });

  it('a failing page listener does not stop the others', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const api = createDesktopApi(ipc);
    const got: unknown[] = [];
    const original = console.error;
    console.error = () => {};
    try {
      api.subscribe('services.changed', () => {
        throw new Error('boom');
      });
      api.subscribe('services.changed', (p) => got.push(p));
      emit('loupe:event', 'services.changed', 1);
    } finally {
      console.error = original;
    }
    expect(got).toEqual([1]);
  });

  it('rejects a non-string method and is frozen so the page cannot replace its functions', async () => {
    const { ipc } = fakeIpcRenderer();
    const api = createDesktopApi(ipc);
    await expect(api.invoke(42 as unknown as string, {})).rejects.toThrow('method must be a string');
    expect(Object.isFrozen(api)).toBe(true);
  });
});
