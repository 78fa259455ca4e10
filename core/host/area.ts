/**
 * How an area (services, settings, search, federation, cdc) implements its part of the
 * contract: for each method a zod schema for the params and a handler.
 */
import type { z } from 'zod';
import type { Events, EventName, MethodName, Params, Result } from './contract.js';
import type { ServiceHandle, ServiceName } from '../common/service.js';
import type { Logger } from '../common/log.js';
import type { SamlCapture } from '../federation/capture/types.js';
import type { SecretCipher } from '../federation/credentials/client-secrets.js';

export interface HostRuntime {
  /** The running embedded service's handle, or undefined when stopped or remote. */
  handle<Api = unknown>(name: ServiceName): ServiceHandle<Api> | undefined;
  /** The base URL an area's client should use: the embedded service's or the remote one. */
  urlOf(name: ServiceName): string;
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  readonly dataDir: string;
  readonly log: Logger;
  /** The desktop's SAML capture (an Electron window); absent: Chromium through playwright-core. */
  readonly samlCapture?: SamlCapture;
  /** The desktop's safeStorage, to keep OIDC client secrets encrypted; absent: they are not kept. */
  readonly secretCipher?: SecretCipher;
}

export interface MethodSpec<M extends MethodName> {
  params: z.ZodType<Params<M>>;
  handler(params: Params<M>, rt: HostRuntime): Result<M> | Promise<Result<M>>;
  /** One line for `loupe` help and the API listing. */
  summary?: string;
}

export type AreaMethods<K extends MethodName> = { [M in K]: MethodSpec<M> };

/**
 * An error a handler throws on purpose: it reaches the UI as `failed` with its message and an
 * optional detail in the real system's shape.
 */
export class HostCallError extends Error {
  constructor(
    message: string,
    readonly detail?: unknown,
    readonly code: 'failed' | 'unavailable' | 'bad_params' = 'failed',
    /** For bad_params: which parameter and why. */
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'HostCallError';
  }
}
