/**
 * The client side of an OpenID Connect token endpoint (Keycloak's or the embedded IdP's): POST a
 * form, read the JSON. HTTPS to the embedded IdP trusts exactly its self-signed certificate
 * (`caPem`), never "any certificate". Errors keep Keycloak's body ({error, error_description}).
 */
import https from 'node:https';

export class TokenEndpointError extends Error {
  constructor(
    message: string,
    /** Keycloak's JSON body with the HTTP status, or undefined when the endpoint was not reached. */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'TokenEndpointError';
  }
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  refresh_token?: string;
  token_type: string;
  id_token?: string;
  scope?: string;
  session_state?: string;
}

async function post(url: string, body: string, caPem?: string): Promise<{ status: number; text: string }> {
  if (caPem && url.startsWith('https:')) {
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method: 'POST', ca: caPem, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: res.status, text: await res.text() };
}

export async function requestToken(tokenEndpoint: string, form: Record<string, string>, caPem?: string): Promise<TokenResponse> {
  let res: { status: number; text: string };
  try {
    res = await post(tokenEndpoint, new URLSearchParams(form).toString(), caPem);
  } catch (err) {
    throw new TokenEndpointError(`Could not reach the token endpoint ${tokenEndpoint}: ${(err as Error).message}`);
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    throw new TokenEndpointError(`The token endpoint answered ${res.status} with something that is not JSON`, { status: res.status, body: res.text.slice(0, 500) });
  }
  if (res.status < 200 || res.status >= 300) throw new TokenEndpointError(`${String(body.error ?? res.status)}: ${String(body.error_description ?? '')}`.trim(), { status: res.status, ...body });
  return body as unknown as TokenResponse;
}
