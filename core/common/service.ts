/**
 * The shape every embedded service shares. An engine exports `start…(ctx)`; the host's
 * supervisor owns the returned handle and closes it on stop or shutdown.
 */
import type { Logger } from './log.js';

export const SERVICE_NAMES = ['search', 'idp', 'sts', 'connect', 'clickhouse'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceContext {
  /** Always 127.0.0.1 for embedded services. */
  readonly host: string;
  readonly port: number;
  /** Only the identity provider has a second (HTTPS) port. */
  readonly httpsPort?: number;
  /** Only connect has it: the embedded CDC source's own port (its address; LOUPE_SOURCE_PORT). */
  readonly sourcePort?: number;
  /** This service's own folder inside the data directory; created before start. */
  readonly dataDir: string;
  readonly log: Logger;
  /**
   * Base URLs of the areas (embedded or remote), for services that are clients of another;
   * `idpHttps` is the identity provider's HTTPS base URL.
   */
  readonly peers: Readonly<Partial<Record<ServiceName | 'idpHttps', string>>>;
}

export interface ServiceHandle<Api = unknown> {
  /** Base URL a client uses, e.g. http://127.0.0.1:9200 */
  readonly url: string;
  /** Extra URLs worth showing (the IdP's HTTPS URL). */
  readonly extraUrls?: Readonly<Record<string, string>>;
  /** In-process API for the host (never used by another engine). */
  readonly api: Api;
  /** Frees ports, timers and files. Safe to call twice. */
  close(): Promise<void>;
}

export type ServiceStarter<Api = unknown> = (ctx: ServiceContext) => Promise<ServiceHandle<Api>>;
