/**
 * The config versions Loupe has seen of each connector. Kafka Connect keeps only the current
 * config; this keeps the earlier ones, captured when a refresh sees a config differ from the last
 * one kept, or when Loupe itself writes one (PUT /connectors/{name}/config), so the panel can
 * diff against the last version. Kept in localStorage per Kafka Connect address, newest last,
 * at most {@link MAX_VERSIONS} per connector. Credentials are kept only as fingerprints (maskSecrets).
 */
import { create } from 'zustand';
import { maskSecrets, sameConfig } from './config-diff.js';

export const MAX_VERSIONS = 20;
const STORAGE_KEY = 'loupe.cdc.connectorHistory.v1';

export type ConfigOrigin = 'seen' | 'edited';

export interface ConfigVersion {
  config: Record<string, string>;
  /** When Loupe first saw (or wrote) this version, epoch ms. */
  at: number;
  /** 'seen': read from Kafka Connect on a refresh; 'edited': written through Loupe. */
  origin: ConfigOrigin;
}

type History = Record<string, ConfigVersion[]>;

interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function load(): Record<string, History> {
  try {
    const text = storage()?.getItem(STORAGE_KEY);
    return text ? (JSON.parse(text) as Record<string, History>) : {};
  } catch {
    // a damaged entry starts the history afresh rather than breaking the panel
    return {};
  }
}

export interface ConnectorHistoryState {
  /** Per Kafka Connect address, per connector name, versions oldest first. */
  byWorker: Record<string, History>;
  /** Keeps `config` (credentials masked) as the newest version of `name` unless it equals the newest kept; true if kept. */
  record(worker: string, name: string, config: Record<string, string>, origin: ConfigOrigin, at?: number): boolean;
  versions(worker: string, name: string): ConfigVersion[];
}

export const useConnectorHistory = create<ConnectorHistoryState>((set, get) => ({
  byWorker: load(),
  record(worker, name, plain, origin, at = Date.now()) {
    const config = maskSecrets(plain);
    const list = get().byWorker[worker]?.[name] ?? [];
    const last = list[list.length - 1];
    if (last && sameConfig(last.config, config)) return false;
    const next = [...list, { config, at, origin }].slice(-MAX_VERSIONS);
    const byWorker = { ...get().byWorker, [worker]: { ...get().byWorker[worker], [name]: next } };
    set({ byWorker });
    try {
      storage()?.setItem(STORAGE_KEY, JSON.stringify(byWorker));
    } catch {
      /* storage full or off: the history still lives for this session */
    }
    return true;
  },
  versions: (worker, name) => get().byWorker[worker]?.[name] ?? [],
}));
