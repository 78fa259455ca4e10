/**
 * What the desktop's capture window (electron/capture.ts) takes from core: the same form-body
 * parsing, sign-in patterns, IdP error-page reading and error type as the playwright-core
 * capture, so both implementations answer alike. Electron imports core only through the host.
 */
export { parseSamlPost, summarizeSamlResponse, SamlPostError } from '../federation/saml/post-body.js';
export { signinMatcher } from '../federation/capture/signin-patterns.js';
export { readIdpErrorPage } from '../federation/capture/idp-error-page.js';
export { CaptureError, type CaptureOptions, type CaptureProgress, type CaptureResult, type SamlCapture } from '../federation/capture/types.js';
