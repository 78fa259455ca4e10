/** The federation workbench's contract: the identity-provider half, the token-service half, and what is done with the credentials. */
import type { FederationIdpMethods, FederationIdpEvents } from './federation-idp.js';
import type { FederationStsMethods, FederationStsEvents } from './federation-sts.js';
import type { FederationCredentialsMethods } from './federation-credentials.js';

export type * from './federation-idp.js';
export type * from './federation-sts.js';
export type * from './federation-credentials.js';

export interface FederationMethods extends FederationIdpMethods, FederationStsMethods, FederationCredentialsMethods {}
export interface FederationEvents extends FederationIdpEvents, FederationStsEvents {}
