import type { ServiceName } from '../../common/service.js';

export type ServiceState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed' | 'remote' | 'unavailable';

export interface ServiceStatus {
  name: ServiceName;
  /** What the service stands in for, e.g. "Elasticsearch REST". */
  protocol: string;
  /** embedded: Loupe runs it; remote: the settings point at another server. */
  mode: 'embedded' | 'remote';
  url: string;
  extraUrls?: Record<string, string>;
  state: ServiceState;
  lastError?: string;
  port?: number;
  /** Environment variable / flag that changes the port, for error messages and the UI. */
  portSetting?: string;
}

export interface ServicesMethods {
  'services.status'(params: Record<string, never>): ServiceStatus[];
  'services.start'(params: { name: ServiceName }): ServiceStatus;
  'services.stop'(params: { name: ServiceName }): ServiceStatus;
  'services.restart'(params: { name: ServiceName }): ServiceStatus;
}

export interface ServicesEvents {
  /** The full list after any service changed state. */
  'services.changed': ServiceStatus[];
}
