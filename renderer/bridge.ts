/**
 * The renderer's one way to reach the host. Two transports carry the same contract:
 * - desktop: the preload exposes `window.loupe` (Electron IPC);
 * - browser: `loupe serve` answers `POST /api/<method>` and streams events over SSE.
 * Stores call `bridge()`; components never talk to the host themselves.
 */
import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import type { ContractErrorBody, EventName, Events, HostBridge, MethodName, Params, Result } from '../core/host/contract.js';

/**
 * The host's JSON, with an integer beyond 2^53 (a BIGINT id in cdc.sql or cdc.changeLog rows) as
 * a bigint, as IPC's structured clone delivers it, where JSON.parse would round it. lossless-json
 * parses ten times slower than JSON.parse (37 against 3 ms for 450 KB of search hits), so it reads
 * only a text with a run of 16 digits, which every such integer has.
 */
const hostJson = (text: string): unknown =>
  /\d{16}/.test(text) ? parseLossless(text, null, (n) => (isInteger(n) && !isSafeNumber(n) ? BigInt(n) : Number(n))) : JSON.parse(text);

type ErrorBody = ContractErrorBody['error'];

/** What `invoke` rejects with: the host's error code, message and details. */
export class HostError extends Error {
  readonly code: ErrorBody['code'] | 'network';
  readonly issues: NonNullable<ErrorBody['issues']>;
  readonly detail: unknown;
  constructor(body: { code: ErrorBody['code'] | 'network'; message: string; issues?: ErrorBody['issues']; detail?: unknown }) {
    super(body.message);
    this.name = 'HostError';
    this.code = body.code;
    this.issues = body.issues ?? [];
    this.detail = body.detail;
  }
}

/**
 * What the desktop preload exposes. `invoke` resolves with the host's envelope rather than
 * rejecting: an Error crossing contextBridge keeps only its message, and the UI needs the code
 * and the per-field issues.
 */
export type InvokeOutcome = { ok: true; result: unknown } | { ok: false; error: ErrorBody };
export interface PreloadApi {
  invoke(method: string, params: unknown): Promise<InvokeOutcome>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    loupe?: PreloadApi;
  }
}

export type ConnectionState = 'connecting' | 'open' | 'lost';

export interface Bridge extends HostBridge {
  /** The event stream's state (always 'open' over IPC). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

export function ipcBridge(api: PreloadApi): Bridge {
  return {
    transport: 'ipc',
    async invoke<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      const outcome = await api.invoke(method, params ?? {});
      if (!outcome.ok) throw new HostError(outcome.error);
      return outcome.result as Result<M>;
    },
    subscribe<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      return api.subscribe(event, (payload) => listener(payload as Events[E]));
    },
    onConnection(listener) {
      listener('open');
      return () => {};
    },
  };
}

const TOKEN_KEY = 'loupe.token';

/**
 * The per-run token `loupe serve` printed in the URL. It is kept for this tab in
 * sessionStorage and removed from the address bar, so it does not end up in bookmarks,
 * screenshots or the history.
 */
export function takeToken(loc: Location = window.location, storage: Storage = window.sessionStorage, hist: History = window.history): string | null {
  const url = new URL(loc.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    hist.replaceState(hist.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY);
}

export function httpBridge(token: string | null, base = ''): Bridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let connection: ConnectionState = 'connecting';
  let source: EventSource | null = null;
  const attached = new Set<string>();

  const setConnection = (state: ConnectionState) => {
    if (state === connection) return;
    connection = state;
    for (const l of connectionListeners) l(state);
  };

  const attach = (event: string) => {
    if (!source || attached.has(event)) return;
    attached.add(event);
    source.addEventListener(event, (msg) => {
      let payload: unknown;
      try {
        payload = hostJson((msg as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const l of listeners.get(event) ?? []) l(payload);
    });
  };

  // One stream for all events; EventSource reconnects by itself after a drop.
  const open = () => {
    if (source) return;
    source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token ?? '')}`);
    source.onopen = () => setConnection('open');
    source.onerror = () => setConnection(source?.readyState === EventSource.CLOSED ? 'lost' : 'connecting');
    for (const event of listeners.keys()) attach(event);
  };

  return {
    transport: 'http',
    async invoke<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      let res: Response;
      try {
        res = await fetch(`${base}/api/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-loupe-token': token ?? '' },
          body: JSON.stringify(params ?? {}),
        });
      } catch (err) {
        throw new HostError({ code: 'network', message: `Cannot reach the Loupe host: ${(err as Error).message}` });
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? hostJson(text) : null;
      } catch {
        body = null;
      }
      if (!res.ok) {
        const error = (body as ContractErrorBody | null)?.error;
        throw new HostError(error ?? { code: 'failed', message: `The host answered ${res.status} ${res.statusText}` });
      }
      return body as Result<M>;
    },
    subscribe<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = (payload: unknown) => listener(payload as Events[E]);
      set.add(wrapped);
      open();
      attach(event);
      return () => {
        set.delete(wrapped);
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(connection);
      return () => {
        connectionListeners.delete(listener);
      };
    },
  };
}

let current: Bridge | null = null;

/** The transport for this page: IPC inside the desktop app, HTTP + SSE in a browser. */
export function bridge(): Bridge {
  current ??= window.loupe ? ipcBridge(window.loupe) : httpBridge(takeToken());
  return current;
}

/** Lets a test or a story use its own bridge. */
export function setBridge(b: Bridge | null): void {
  current = b;
}
