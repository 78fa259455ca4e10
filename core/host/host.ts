/**
 * The host: settings, the service supervisor and every area's contract methods behind one
 * `call`. Electron's IPC and `loupe serve`'s HTTP API both carry exactly this.
 */
import { createLogger, type Logger } from '../common/log.js';
import type { ServiceName } from '../common/service.js';
import { SERVICE_NAMES } from '../common/service.js';
import type { EventName, Events, SettingsView } from './contract.js';
import type { HostRuntime } from './area.js';
import { Dispatcher, type CallOutcome } from './dispatch.js';
import { SettingsStore } from './settings.js';
import { Supervisor } from './supervisor.js';
import { portOverrides } from './ports.js';
import { ensureDir } from './data-dir.js';
import { servicesArea, settingsArea } from './areas/services.js';
import { searchArea } from './areas/search.js';
import { federationArea } from './areas/federation.js';
import { cdcArea } from './areas/cdc.js';
import type { ServiceEntry } from './registry.js';
import type { SamlCapture } from '../federation/capture/types.js';
import type { SecretCipher } from '../federation/credentials/client-secrets.js';
import { wireQueueFeeders, type QueueWiring } from './queue-wiring.js';

export type { CallOutcome } from './dispatch.js';

export interface HostOptions {
  dataDir: string;
  portBase?: number;
  env?: NodeJS.ProcessEnv;
  log?: Logger;
  /** Replaces the service registry (tests). */
  registry?: Record<ServiceName, ServiceEntry>;
  /** The desktop passes its Electron capture window; otherwise Chromium through playwright-core. */
  samlCapture?: SamlCapture;
  /** The desktop passes Electron's safeStorage: OIDC client secrets are kept encrypted. */
  secretCipher?: SecretCipher;
}

export type HostListener = (event: EventName, payload: unknown) => void;

export interface Host {
  call(method: string, params: unknown): Promise<CallOutcome>;
  on(listener: HostListener): () => void;
  startServices(only?: ServiceName[]): Promise<void>;
  close(): Promise<void>;
  readonly settings: SettingsStore;
  readonly supervisor: Supervisor;
  readonly dispatcher: Dispatcher;
  readonly dataDir: string;
  readonly log: Logger;
  /** CDC variant 2: the feeders of queue tables from the topic log. */
  readonly queues: QueueWiring;
}

export async function createHost(opts: HostOptions): Promise<Host> {
  const log = opts.log ?? createLogger();
  const dataDir = ensureDir(opts.dataDir);
  const settings = new SettingsStore(dataDir, portOverrides(opts.env ?? process.env, opts.portBase));
  if (settings.corruptBackup) {
    log.warn(`settings file was not valid (${settings.corruptReason}); kept it as ${settings.corruptBackup} and started from defaults`);
  }
  const supervisor = new Supervisor({ dataDir, settings: () => settings.effective(), log, ...(opts.registry ? { registry: opts.registry } : {}) });
  const listeners = new Set<HostListener>();
  const emit = <E extends EventName>(event: E, payload: Events[E]) => {
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch (err) {
        log.warn(`event listener failed for ${event}`, { message: (err as Error).message });
      }
    }
  };
  supervisor.onChange((status) => emit('services.changed', status));
  const queues = wireQueueFeeders(supervisor, log);

  const rt: HostRuntime = {
    handle: (name) => supervisor.handle(name),
    urlOf: (name) => supervisor.urlOf(name),
    emit,
    dataDir,
    log,
    ...(opts.samlCapture ? { samlCapture: opts.samlCapture } : {}),
    ...(opts.secretCipher ? { secretCipher: opts.secretCipher } : {}),
  };

  let before = settings.effective();
  const onSettingsChanged = (view: SettingsView) => {
    emit('settings.changed', view);
    void applyServiceSettings(before, view).catch((err) => log.error('applying settings failed', { message: (err as Error).message }));
    before = view.settings;
  };

  /** A running service whose port or mode changed is restarted on the new port, or stopped. */
  async function applyServiceSettings(prev: typeof before, view: SettingsView): Promise<void> {
    // Mode and URL changes alter the status even of a service that is not running.
    emit('services.changed', supervisor.status());
    for (const name of SERVICE_NAMES) {
      const a = prev.areas[name];
      const b = view.settings.areas[name];
      const wasRunning = supervisor.handle(name) !== undefined;
      const httpsChanged = (name === 'idp' && prev.idpHttpsPort !== view.settings.idpHttpsPort) || (name === 'connect' && prev.sourcePort !== view.settings.sourcePort);
      if (a.mode === b.mode && a.port === b.port && !httpsChanged) continue;
      if (b.mode === 'remote') await supervisor.stop(name);
      else if (wasRunning) await supervisor.restart(name);
    }
  }

  const dispatcher = new Dispatcher(
    {
      ...servicesArea(supervisor),
      ...settingsArea(settings, onSettingsChanged),
      ...searchArea,
      ...federationArea,
      ...cdcArea,
    },
    rt,
  );

  let closed = false;
  return {
    call: (method, params) => dispatcher.call(method, params),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async startServices(only) {
      await supervisor.startAll(only);
    },
    async close() {
      if (closed) return;
      closed = true;
      await queues.close();
      await supervisor.stopAll();
      listeners.clear();
    },
    settings,
    supervisor,
    dispatcher,
    dataDir,
    log,
    queues,
  };
}
