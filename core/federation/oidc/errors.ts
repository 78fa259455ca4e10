/** An OAuth 2.0 error exactly as Keycloak answers it: status + {"error","error_description"}. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** Keycloak's texts (services/…/oidc/endpoints/TokenEndpoint and the client authenticators). */
export const KC = {
  missingGrantType: () => new OAuthError(400, 'invalid_request', 'Missing form parameter: grant_type'),
  unsupportedGrantType: () => new OAuthError(400, 'unsupported_grant_type', 'Unsupported grant_type'),
  missingClientId: () => new OAuthError(400, 'invalid_client', 'Missing client_id parameter'),
  invalidClient: () => new OAuthError(401, 'invalid_client', 'Invalid client or Invalid client credentials'),
  noDirectGrants: () => new OAuthError(400, 'unauthorized_client', 'Client not allowed for direct access grants'),
  missingUsername: () => new OAuthError(401, 'invalid_request', 'Missing parameter: username'),
  invalidUserCredentials: () => new OAuthError(401, 'invalid_grant', 'Invalid user credentials'),
  accountDisabled: () => new OAuthError(400, 'invalid_grant', 'Account disabled'),
  publicServiceAccount: () => new OAuthError(401, 'unauthorized_client', 'Public client not allowed to retrieve service account'),
  noServiceAccount: () => new OAuthError(401, 'unauthorized_client', 'Client not enabled to retrieve service account'),
  missingRefreshToken: () => new OAuthError(400, 'invalid_request', 'Missing parameter: refresh_token'),
  invalidRefreshToken: () => new OAuthError(400, 'invalid_grant', 'Invalid refresh token'),
  refreshClientMismatch: () => new OAuthError(400, 'invalid_grant', "Invalid refresh token. Token client and authorized client don't match"),
  refreshNotActive: () => new OAuthError(400, 'invalid_grant', 'Token is not active'),
  sessionNotActive: () => new OAuthError(400, 'invalid_grant', 'Session not active'),
  sessionWithoutClient: () => new OAuthError(400, 'invalid_grant', "Session doesn't have required client"),
  realmNotFound: () => new OAuthError(404, 'Realm does not exist', 'Realm does not exist'),
} as const;
