/**
 * The embedded services Loupe knows and how to start each one. An engine that does not exist
 * yet has no `load` and is reported as unavailable, never faked. Loading is lazy so that
 * `loupe services --only search` does not load chDB.
 */
import type { ServiceName, ServiceStarter } from '../common/service.js';

export interface ServiceEntry {
  name: ServiceName;
  /** What the service stands in for. */
  protocol: string;
  /** Loads the engine's start function. */
  load?: () => Promise<ServiceStarter>;
}

export const SERVICES: Record<ServiceName, ServiceEntry> = {
  search: { name: 'search', protocol: 'Elasticsearch REST', load: async () => (await import('../search/service.js')).startSearchService as ServiceStarter },
  idp: { name: 'idp', protocol: 'Keycloak (OIDC + SAML)', load: async () => (await import('../federation/idp/service.js')).startIdpService as ServiceStarter },
  sts: { name: 'sts', protocol: 'AWS STS Query API', load: async () => (await import('../federation/sts/service.js')).startStsService as ServiceStarter },
  connect: { name: 'connect', protocol: 'Kafka Connect REST', load: async () => (await import('../cdc/connect/service.js')).startConnectService as ServiceStarter },
  clickhouse: { name: 'clickhouse', protocol: 'ClickHouse HTTP', load: async () => (await import('../cdc/clickhouse/service.js')).startClickHouseService as ServiceStarter },
};
