/** Host implementation of the federation workbench: the IdP side, the capture and the token-service side. */
import { federationIdpArea } from './federation-idp.js';
import { federationCaptureArea } from './federation-capture.js';
import { federationStsArea } from './federation-sts.js';

export const federationArea = { ...federationIdpArea, ...federationCaptureArea, ...federationStsArea };
