/**
 * The shell's state: which page is open, the embedded services and their live states, and
 * whether the event stream to the host is up. Actions call the host through the bridge.
 */
import { create } from 'zustand';
import type { ServiceName, ServiceStatus } from '../../core/host/contract.js';
import { bridge, HostError, type ConnectionState } from '../bridge.js';
import { pageFromHash, type PageId } from './pages.js';

type ServiceAction = 'start' | 'stop' | 'restart';

export interface ShellState {
  page: PageId;
  /** null until the first answer from the host. */
  services: ServiceStatus[] | null;
  loading: boolean;
  loadError: string | null;
  /** The host refused this page's token (opened without the printed URL, or from an old run). */
  unauthorized: boolean;
  connection: ConnectionState;
  transport: 'ipc' | 'http';
  /** A start/stop/restart in flight, per service. */
  pending: Partial<Record<ServiceName, ServiceAction>>;
  /** The last failed action per service, shown next to it until the next action. */
  actionErrors: Partial<Record<ServiceName, string>>;

  navigate(page: PageId): void;
  /** Subscribes to the host and loads the first state; returns the disposer. */
  connect(): () => void;
  refresh(): Promise<void>;
  act(name: ServiceName, action: ServiceAction): Promise<void>;
}

export const useShell = create<ShellState>()((set, get) => ({
  page: pageFromHash(typeof window === 'undefined' ? '' : window.location.hash),
  services: null,
  loading: false,
  loadError: null,
  unauthorized: false,
  connection: 'connecting',
  transport: 'http',
  pending: {},
  actionErrors: {},

  navigate(page) {
    if (window.location.hash !== `#/${page}`) window.location.hash = `/${page}`;
    set({ page });
  },

  connect() {
    const b = bridge();
    set({ transport: b.transport });
    const offChanged = b.subscribe('services.changed', (services) => set({ services, loadError: null }));
    // Mode, URL and port of a service come from the settings: re-read the list when they change
    // (a stopped service switched to remote emits no services.changed of its own).
    const offSettings = b.subscribe('settings.changed', () => void get().refresh());
    const offConnection = b.onConnection((connection) => {
      const was = get().connection;
      set({ connection });
      // After a reconnect the host may have changed while we were away.
      if (connection === 'open' && was !== 'open' && get().services !== null) void get().refresh();
    });
    const onHash = () => set({ page: pageFromHash(window.location.hash) });
    window.addEventListener('hashchange', onHash);
    void get().refresh();
    return () => {
      offChanged();
      offSettings();
      offConnection();
      window.removeEventListener('hashchange', onHash);
    };
  },

  async refresh() {
    set({ loading: true });
    try {
      const services = await bridge().invoke('services.status', {});
      set({ services, loading: false, loadError: null, unauthorized: false });
    } catch (err) {
      set({ loading: false, loadError: (err as Error).message, unauthorized: err instanceof HostError && err.code === 'unauthorized' });
    }
  },

  async act(name, action) {
    set((s) => ({ pending: { ...s.pending, [name]: action }, actionErrors: { ...s.actionErrors, [name]: undefined } }));
    try {
      const status = await bridge().invoke(`services.${action}`, { name });
      set((s) => ({ services: s.services?.map((x) => (x.name === name ? status : x)) ?? s.services }));
    } catch (err) {
      set((s) => ({ actionErrors: { ...s.actionErrors, [name]: (err as Error).message } }));
    } finally {
      set((s) => ({ pending: { ...s.pending, [name]: undefined } }));
    }
  },
}));

export function serviceByName(services: ServiceStatus[] | null, name: ServiceName): ServiceStatus | undefined {
  return services?.find((s) => s.name === name);
}
