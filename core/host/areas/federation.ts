/** Host implementation of the federation workbench: the IdP side, the capture, the token-service side and the credentials. */
import { federationIdpArea } from './federation-idp.js';
import { federationCaptureArea } from './federation-capture.js';
import { federationStsArea } from './federation-sts.js';
import { federationCredentialsArea } from './federation-credentials.js';

export const federationArea = { ...federationIdpArea, ...federationCaptureArea, ...federationStsArea, ...federationCredentialsArea };
