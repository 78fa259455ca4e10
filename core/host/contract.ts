/**
 * The one typed contract between the UI and the host. Plain JSON in, plain JSON out; the same
 * calls travel over Electron IPC and over `loupe serve`'s HTTP API. The renderer imports this
 * file for types only.
 */
import type { ServicesMethods, ServicesEvents } from './contract/services.js';
import type { SettingsMethods, SettingsEvents } from './contract/settings.js';
import type { SearchMethods, SearchEvents } from './contract/search.js';
import type { FederationMethods, FederationEvents } from './contract/federation.js';
import type { CdcMethods, CdcEvents } from './contract/cdc.js';

export type * from './contract/services.js';
export type * from './contract/settings.js';
export type * from './contract/search.js';
export type * from './contract/federation.js';
export type * from './contract/cdc.js';
export type { ServiceName } from '../common/service.js';

export interface Methods extends ServicesMethods, SettingsMethods, SearchMethods, FederationMethods, CdcMethods {}
export interface Events extends ServicesEvents, SettingsEvents, SearchEvents, FederationEvents, CdcEvents {}

export type MethodName = keyof Methods & string;
export type EventName = keyof Events & string;
export type Params<M extends MethodName> = Parameters<Methods[M]>[0];
export type Result<M extends MethodName> = Awaited<ReturnType<Methods[M]>>;

/** The error every transport returns: `code` is stable, `message` is for people. */
export interface ContractErrorBody {
  error: {
    code: 'unknown_method' | 'bad_params' | 'failed' | 'unauthorized' | 'unavailable';
    message: string;
    /** For bad_params: which parameter and why. */
    issues?: { path: string; message: string }[];
    /** Area-specific error in the real system's shape (e.g. an Elasticsearch error), when there is one. */
    detail?: unknown;
  };
}

/** What a transport exposes to the renderer. */
export interface HostBridge {
  invoke<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  subscribe<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  readonly transport: 'ipc' | 'http';
}
