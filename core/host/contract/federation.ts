/** The federation workbench's contract: the identity-provider half and the token-service half. */
import type { FederationIdpMethods, FederationIdpEvents } from './federation-idp.js';
import type { FederationStsMethods, FederationStsEvents } from './federation-sts.js';

export type * from './federation-idp.js';
export type * from './federation-sts.js';

export interface FederationMethods extends FederationIdpMethods, FederationStsMethods {}
export interface FederationEvents extends FederationIdpEvents, FederationStsEvents {}
