/** Host implementation of the federation workbench: both halves. */
import { federationIdpArea } from './federation-idp.js';
import { federationStsArea } from './federation-sts.js';

export const federationArea = { ...federationIdpArea, ...federationStsArea };
