/**
 * Owns the embedded services: starts them on their ports, stops them, restarts them, and
 * reports every state change. A service whose engine does not exist yet is `unavailable`; a
 * service the settings point elsewhere is `remote` and never started.
 */
import path from 'node:path';
import { SERVICE_NAMES, type ServiceHandle, type ServiceName } from '../common/service.js';
import type { Logger } from '../common/log.js';
import { PortInUseError } from '../common/http.js';
import { ensureDir } from './data-dir.js';
import { SERVICES, type ServiceEntry } from './registry.js';
import { DEFAULT_PORTS, portEnvFor, SERVICE_PORT_KEY } from './ports.js';
import type { ServiceState, ServiceStatus } from './contract/services.js';
import type { Settings } from './contract/settings.js';

interface Slot {
  state: ServiceState;
  handle?: ServiceHandle;
  lastError?: string;
  /** The start or stop in flight, so concurrent calls wait for it instead of racing. */
  pending?: Promise<void>;
}

export interface SupervisorOptions {
  dataDir: string;
  settings: () => Settings;
  log: Logger;
  /** Replaces the registry; tests use it to supervise small fake services. */
  registry?: Record<ServiceName, ServiceEntry>;
}

export class Supervisor {
  private slots = new Map<ServiceName, Slot>();
  private listeners = new Set<(status: ServiceStatus[]) => void>();
  private readonly registry: Record<ServiceName, ServiceEntry>;

  constructor(private readonly opts: SupervisorOptions) {
    this.registry = opts.registry ?? SERVICES;
    for (const name of SERVICE_NAMES) this.slots.set(name, { state: this.registry[name].load ? 'stopped' : 'unavailable' });
  }

  onChange(listener: (status: ServiceStatus[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  handle<Api>(name: ServiceName): ServiceHandle<Api> | undefined {
    return this.slots.get(name)?.handle as ServiceHandle<Api> | undefined;
  }

  /** The URL clients of an area use: the running embedded service's, or the remote one. */
  urlOf(name: ServiceName): string {
    const area = this.opts.settings().areas[name];
    if (area.mode === 'remote') return area.remoteUrl.replace(/\/+$/, '');
    return this.slots.get(name)?.handle?.url ?? `http://127.0.0.1:${area.port}`;
  }

  status(): ServiceStatus[] {
    return SERVICE_NAMES.map((name) => this.statusOf(name));
  }

  statusOf(name: ServiceName): ServiceStatus {
    const settings = this.opts.settings();
    const area = settings.areas[name];
    const slot = this.slots.get(name)!;
    const entry = this.registry[name];
    const portKey = SERVICE_PORT_KEY[name];
    const remote = area.mode === 'remote';
    return {
      name,
      protocol: entry.protocol,
      mode: area.mode,
      url: this.urlOf(name),
      ...(slot.handle?.extraUrls ? { extraUrls: { ...slot.handle.extraUrls } } : {}),
      state: remote ? 'remote' : slot.state,
      ...(slot.lastError && !remote ? { lastError: slot.lastError } : {}),
      ...(remote ? {} : { port: area.port, portSetting: `${portEnvFor(portKey)} or --port-base` }),
    };
  }

  async start(name: ServiceName): Promise<ServiceStatus> {
    const slot = this.slots.get(name)!;
    await slot.pending;
    if (slot.state === 'running' || this.opts.settings().areas[name].mode === 'remote') return this.statusOf(name);
    const entry = this.registry[name];
    if (!entry.load) {
      slot.state = 'unavailable';
      slot.lastError = `the embedded ${name} engine is not part of this build yet`;
      this.changed();
      return this.statusOf(name);
    }
    slot.pending = this.doStart(name, slot, entry);
    await slot.pending;
    slot.pending = undefined;
    return this.statusOf(name);
  }

  private async doStart(name: ServiceName, slot: Slot, entry: ServiceEntry): Promise<void> {
    slot.state = 'starting';
    slot.lastError = undefined;
    this.changed();
    const settings = this.opts.settings();
    const port = settings.areas[name].port;
    const log = this.opts.log.child(name);
    try {
      const starter = await entry.load!();
      slot.handle = await starter({
        host: '127.0.0.1',
        port,
        ...(name === 'idp' ? { httpsPort: settings.idpHttpsPort } : {}),
        ...(name === 'connect' ? { sourcePort: settings.sourcePort ?? DEFAULT_PORTS.source } : {}),
        dataDir: ensureDir(path.join(this.opts.dataDir, name)),
        log,
        peers: this.peers(),
      });
      slot.state = 'running';
      log.info(`listening on ${slot.handle.url}`);
    } catch (err) {
      slot.state = 'failed';
      slot.handle = undefined;
      slot.lastError = describeStartError(name, port, err);
      log.error(`failed to start: ${slot.lastError}`);
    }
    this.changed();
  }

  private peers(): Partial<Record<ServiceName | 'idpHttps', string>> {
    const out: Partial<Record<ServiceName | 'idpHttps', string>> = {};
    for (const n of SERVICE_NAMES) out[n] = this.urlOf(n);
    const idp = this.slots.get('idp')?.handle;
    out.idpHttps = idp?.extraUrls?.https ?? `https://127.0.0.1:${this.opts.settings().idpHttpsPort}`;
    return out;
  }

  async stop(name: ServiceName): Promise<ServiceStatus> {
    const slot = this.slots.get(name)!;
    await slot.pending;
    if (!slot.handle) return this.statusOf(name);
    const handle = slot.handle;
    slot.pending = (async () => {
      slot.state = 'stopping';
      this.changed();
      try {
        await handle.close();
      } catch (err) {
        slot.lastError = `error while stopping: ${(err as Error).message}`;
      }
      slot.handle = undefined;
      slot.state = 'stopped';
      this.changed();
    })();
    await slot.pending;
    slot.pending = undefined;
    return this.statusOf(name);
  }

  async restart(name: ServiceName): Promise<ServiceStatus> {
    await this.stop(name);
    return this.start(name);
  }

  /**
   * Starts the given services (default: all available, embedded ones). Order matters: the IdP
   * before the STS (which imports its metadata) and ClickHouse before Connect (whose sink
   * writes to it).
   */
  async startAll(only?: ServiceName[]): Promise<ServiceStatus[]> {
    const order: ServiceName[] = ['search', 'idp', 'sts', 'clickhouse', 'connect'];
    for (const name of order) {
      if (only && !only.includes(name)) continue;
      if (!only && !this.registry[name].load) continue;
      await this.start(name);
    }
    return this.status();
  }

  async stopAll(): Promise<void> {
    const order: ServiceName[] = ['connect', 'clickhouse', 'sts', 'idp', 'search'];
    for (const name of order) await this.stop(name);
  }

  private changed(): void {
    const status = this.status();
    for (const l of this.listeners) l(status);
  }
}

function describeStartError(name: ServiceName, port: number, err: unknown): string {
  if (err instanceof PortInUseError) {
    // The IdP opens a second port for HTTPS; name the variable of the port that clashed.
    const env = name === 'idp' && err.port !== port ? portEnvFor('idpHttps') : name === 'connect' && err.port !== port ? portEnvFor('source') : portEnvFor(SERVICE_PORT_KEY[name]);
    return `port ${err.port} on 127.0.0.1 is already in use; set ${env} or --port-base, or change the ${name} port in Settings`;
  }
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    return `port ${port} on 127.0.0.1 is already in use; set ${portEnvFor(SERVICE_PORT_KEY[name])} or --port-base, or change the ${name} port in Settings`;
  }
  return e?.message ?? String(err);
}
