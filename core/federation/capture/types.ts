/**
 * The capture interface both implementations share: open the IdP's SSO URL in a browser, let
 * the user sign in, stop the POST to the cloud's sign-in endpoint and hand back its body, parsed
 * by core's `parseSamlPost`. The desktop one is electron/capture.ts; this folder has the
 * playwright-core one (browser host and terminal).
 */
import type { AssertionSummary } from '../saml/post-body.js';
import type { SigninPattern } from './signin-patterns.js';

export type CaptureStage = 'launching' | 'opened' | 'navigated' | 'login-failed' | 'captured' | 'closed' | 'failed';

export interface CaptureProgress {
  stage: CaptureStage;
  message: string;
  url?: string;
  at: string;
}

export interface CaptureOptions {
  /** The IdP-initiated SSO URL (or any page that ends in the SAML POST). */
  ssoUrl: string;
  /** Sign-in endpoints to intercept; AWS's by default. */
  patterns?: readonly SigninPattern[];
  /** Default 300 s, as saml2aws's browser provider. */
  timeoutMs?: number;
  headless?: boolean;
  executablePath?: string;
  /** Accept the IdP's self-signed HTTPS certificate. */
  ignoreHttpsErrors?: boolean;
  /** Prefix of the cloud's SAML attribute names, to read roles (default https://aws.amazon.com). */
  cloudDomain?: string;
  onProgress?: (p: CaptureProgress) => void;
  signal?: AbortSignal;
  /**
   * When set, the browser also listens for the DevTools protocol on 127.0.0.1 at this port
   * (LOUPE_CAPTURE_CDP_PORT), so an end-to-end test can drive the real login page in it.
   */
  cdpPort?: number;
}

export interface CaptureResult {
  samlResponse: string;
  relayState?: string;
  /** The sign-in URL the browser tried to POST to (never reached). */
  acsUrl: string;
  summary: AssertionSummary;
}

export type CaptureErrorCode = 'launch_failed' | 'navigation_failed' | 'timeout' | 'closed' | 'aborted' | 'bad_post' | 'idp_error';

export class CaptureError extends Error {
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

export type SamlCapture = (opts: CaptureOptions) => Promise<CaptureResult>;
