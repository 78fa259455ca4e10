/** Signed SAML responses for tests outside core (the desktop capture window's). */
export { awsAttr, generateSigningKey, signedResponseBase64, type SigningKey } from '../../federation/sts/testing/saml-signer.js';
