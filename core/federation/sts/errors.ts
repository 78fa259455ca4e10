/**
 * The one error type of the token service. It carries what AWS STS puts on the wire (code,
 * message, HTTP status, Sender/Receiver); the HTTP layer only serializes it.
 */
export class StsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly type: 'Sender' | 'Receiver' = 'Sender',
  ) {
    super(message);
    this.name = 'StsError';
  }
}

/**
 * AWS reports failures of its inner SAML service through STS with the inner service's name,
 * status and code in the message, e.g. "Invalid base64 SAMLResponse (Service:
 * AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException;
 * Request ID: …)". The spec's error table asks for exactly this code inside InvalidIdentityToken.
 */
export function samlResponseRejected(what: string, requestId: string): StsError {
  return new StsError(
    'InvalidIdentityToken',
    `${what} (Service: AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException; Request ID: ${requestId})`,
  );
}

export const invalidToken = (message: string): StsError => new StsError('InvalidIdentityToken', message);

/** AWS's validation wording: "1 validation error detected: Value 'x' at 'y' failed to satisfy constraint: z". */
export function validationError(errors: { value: string | undefined; at: string; constraint: string }[]): StsError {
  const parts = errors.map((e) => `Value ${e.value === undefined ? 'null' : `'${e.value}'`} at '${e.at}' failed to satisfy constraint: ${e.constraint}`);
  return new StsError('ValidationError', `${errors.length} validation error${errors.length === 1 ? '' : 's'} detected: ${parts.join('; ')}`);
}
