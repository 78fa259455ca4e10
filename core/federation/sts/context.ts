/** What the token service's operations share: the account, the options, the key cache, the clock. */
import type { Logger } from '../../common/log.js';
import type { AccountStore } from './account/store.js';
import type { ProviderKeyCache } from './oidc/provider-keys.js';
import type { StsOptions } from './options.js';
import type { SamlReader } from './saml/remembered-readings.js';

export interface StsContext {
  readonly store: AccountStore;
  readonly options: StsOptions;
  readonly keys: ProviderKeyCache;
  /** SAML parsing and signature checks, off the event loop (recent successful readings remembered). */
  readonly saml: SamlReader;
  readonly log: Logger;
  now(): number;
}
