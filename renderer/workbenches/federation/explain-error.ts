/**
 * A failed call, in the failing system's words plus one plain line with the fix: STS error codes
 * (InvalidIdentityToken, ExpiredTokenException, AccessDenied…), Keycloak's OAuth errors
 * (unauthorized_client, invalid_grant…), and the capture's own codes.
 */
export interface Explained {
  /** Which system said it. */
  system: 'Token service (STS)' | 'Identity provider (Keycloak)' | 'Capture browser' | 'Loupe';
  /** The system's code, e.g. InvalidIdentityToken. */
  code?: string;
  /** The system's message as given. */
  message: string;
  fix: string;
}

interface ErrorLike {
  message: string;
  code?: string;
  detail?: unknown;
}

export function explainError(err: ErrorLike): Explained {
  const d = (err.detail ?? {}) as Record<string, unknown>;
  if (typeof d.Code === 'string') {
    const code = d.Code;
    const message = typeof d.Message === 'string' ? d.Message : err.message;
    return { system: 'Token service (STS)', code, message, fix: stsFix(code, message) };
  }
  if (typeof d.error === 'string' && ('error_description' in d || 'status' in d)) {
    const code = d.error;
    const message = typeof d.error_description === 'string' ? d.error_description : err.message;
    return { system: 'Identity provider (Keycloak)', code, message, fix: keycloakFix(code, message) };
  }
  if (typeof d.code === 'string') return { system: 'Capture browser', code: d.code, message: err.message, fix: captureFix(d.code) };
  if (err.code === 'unavailable') return { system: 'Loupe', message: err.message, fix: 'Start the service on the Services page, or point Settings at a remote one.' };
  if (err.code === 'network') return { system: 'Loupe', message: err.message, fix: 'Check that loupe serve (or the desktop app) is still running.' };
  return { system: 'Loupe', message: err.message, fix: 'Check the values and try again.' };
}

function stsFix(code: string, message: string): string {
  if (/RoleSessionName/i.test(message)) return 'Add a RoleSessionName mapper (https://aws.amazon.com/SAML/Attributes/RoleSessionName) to the client in the identity provider, then sign in again.';
  switch (code) {
    case 'ExpiredTokenException':
    case 'ExpiredToken':
      return 'The assertion or token is too old: sign in again.';
    case 'InvalidIdentityToken':
      return "The token service does not accept what the identity provider sent: check the issuer, audience and signature against the token service's provider.";
    case 'IDPRejectedClaim':
      return "A claim does not match the role's trust policy: check the role's conditions (audience, subject).";
    case 'AccessDenied':
      return "The role's trust policy does not allow this provider: add it as a Federated principal of the role.";
    case 'ValidationError':
      return /Duration/i.test(message) ? "Ask for a shorter session: at most the role's maximum session duration." : 'One of the values sent is out of range; see the message above.';
    case 'InvalidClientTokenId':
    case 'SignatureDoesNotMatch':
      return 'These credentials are not accepted: get new credentials.';
    case 'RegionDisabledException':
      return 'Activate STS in this region for the account, or use another regional endpoint in Settings.';
    default:
      return 'See the message above; the token service refused the call.';
  }
}

function keycloakFix(code: string, message: string): string {
  if (code === 'unauthorized_client' && /direct access grants/i.test(message)) return 'Enable Direct access grants for this client (Keycloak: Clients → the client → Settings → Capability config), or sign in through the browser instead.';
  switch (code) {
    case 'invalid_grant':
      return /credentials/i.test(message) ? 'Check the username and password.' : 'Sign in again; the code or session is no longer valid.';
    case 'invalid_client':
      return "Check the client secret (Keycloak: Clients → the client → Credentials) or the client id.";
    case 'unauthorized_client':
      return 'This client is not allowed this grant; check its capability config in Keycloak.';
    case 'invalid_scope':
      return 'Ask only for scopes the client has.';
    default:
      return 'See the message above; the identity provider refused the request.';
  }
}

function captureFix(code: string): string {
  switch (code) {
    case 'timeout':
      return 'Sign in within the time allowed, or allow more time.';
    case 'idp_error':
      return 'The identity provider refused the sign-in request: check the SSO URL or the client in the identity provider.';
    case 'closed':
      return 'The window was closed: sign in again and finish in the window.';
    case 'aborted':
      return 'Cancelled: sign in again when ready.';
    case 'launch_failed':
      return 'Chromium could not start: install Chromium (or Chrome), or run Loupe on a machine with a display.';
    case 'navigation_failed':
      return 'The identity provider could not be reached: check that it runs and the URL is right.';
    case 'bad_post':
      return 'The page posted something that is not a SAML response: check the identity provider client.';
    default:
      return 'See the message above.';
  }
}
