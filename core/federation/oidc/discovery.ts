/** The OpenID Provider metadata document, with Keycloak's endpoint layout under the realm URL. */
export function openIdConfiguration(issuer: string): Record<string, unknown> {
  const oidc = `${issuer}/protocol/openid-connect`;
  return {
    issuer,
    authorization_endpoint: `${oidc}/auth`,
    token_endpoint: `${oidc}/token`,
    userinfo_endpoint: `${oidc}/userinfo`,
    end_session_endpoint: `${oidc}/logout`,
    jwks_uri: `${oidc}/certs`,
    grant_types_supported: ['password', 'client_credentials', 'refresh_token'],
    response_types_supported: ['code', 'none', 'id_token', 'token', 'id_token token', 'code id_token', 'code token', 'code id_token token'],
    subject_types_supported: ['public', 'pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    userinfo_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    claims_supported: ['aud', 'sub', 'iss', 'auth_time', 'name', 'given_name', 'family_name', 'preferred_username', 'email', 'acr', 'azp'],
    scopes_supported: ['openid', 'profile', 'email', 'roles'],
    claims_parameter_supported: true,
    request_parameter_supported: true,
    code_challenge_methods_supported: ['plain', 'S256'],
  };
}
