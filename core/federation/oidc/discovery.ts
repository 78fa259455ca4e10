import { KNOWN_SCOPES } from './authorization-request.js';

/** The OpenID Provider metadata document, with Keycloak's endpoint layout under the realm URL. */
export function openIdConfiguration(issuer: string): Record<string, unknown> {
  const oidc = `${issuer}/protocol/openid-connect`;
  return {
    issuer,
    authorization_endpoint: `${oidc}/auth`,
    token_endpoint: `${oidc}/token`,
    userinfo_endpoint: `${oidc}/userinfo`,
    end_session_endpoint: `${oidc}/logout`,
    introspection_endpoint: `${oidc}/token/introspect`,
    revocation_endpoint: `${oidc}/revoke`,
    frontchannel_logout_supported: false,
    backchannel_logout_supported: false,
    jwks_uri: `${oidc}/certs`,
    grant_types_supported: ['authorization_code', 'password', 'client_credentials', 'refresh_token'],
    response_types_supported: ['code', 'none', 'id_token', 'token', 'id_token token', 'code id_token', 'code token', 'code id_token token'],
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['public', 'pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    userinfo_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    claims_supported: ['aud', 'sub', 'iss', 'auth_time', 'name', 'given_name', 'family_name', 'preferred_username', 'email', 'acr', 'azp', 'nonce'],
    scopes_supported: [...KNOWN_SCOPES],
    claims_parameter_supported: false,
    // Request objects are not read; saying so keeps clients from sending them.
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    code_challenge_methods_supported: ['plain', 'S256'],
  };
}
