/**
 * Reads an SP's AuthnRequest from the HTTP-Redirect binding (base64 of raw DEFLATE) or the
 * HTTP-POST binding (plain base64).
 */
import { inflateRawSync } from 'node:zlib';
import { NS, parseUntrustedXml, firstChild, textOf } from './xml.js';
import { HTTP_POST } from './sp-metadata.js';

export interface AuthnRequest {
  id: string;
  issuer: string;
  assertionConsumerServiceUrl?: string;
  protocolBinding?: string;
  destination?: string;
  forceAuthn: boolean;
  isPassive: boolean;
}

export class AuthnRequestError extends Error {}

export function decodeAuthnRequest(samlRequest: string, binding: 'redirect' | 'post'): AuthnRequest {
  const bytes = Buffer.from(samlRequest.replace(/\s+/g, ''), 'base64');
  let xml: string;
  try {
    // Inflation is bounded so a deflate bomb cannot fill memory.
    xml = binding === 'redirect' ? inflateRawSync(bytes, { maxOutputLength: 1 << 20 }).toString('utf8') : bytes.toString('utf8');
  } catch {
    throw new AuthnRequestError('SAMLRequest is not deflated base64 (HTTP-Redirect binding)');
  }
  let doc;
  try {
    doc = parseUntrustedXml(xml);
  } catch (err) {
    throw new AuthnRequestError(`SAMLRequest is not XML: ${(err as Error).message}`);
  }
  const root = doc.documentElement!;
  if (root.namespaceURI !== NS.protocol || root.localName !== 'AuthnRequest') throw new AuthnRequestError(`SAMLRequest is a ${root.localName}, not an AuthnRequest`);
  const id = root.getAttribute('ID') ?? '';
  if (!id) throw new AuthnRequestError('AuthnRequest has no ID');
  const issuer = textOf(firstChild(root, NS.assertion, 'Issuer')).trim();
  if (!issuer) throw new AuthnRequestError('AuthnRequest has no Issuer');
  const binding2 = root.getAttribute('ProtocolBinding') || undefined;
  if (binding2 && binding2 !== HTTP_POST) throw new AuthnRequestError(`unsupported ProtocolBinding ${binding2}; only HTTP-POST is answered`);
  const acs = root.getAttribute('AssertionConsumerServiceURL') || undefined;
  const dest = root.getAttribute('Destination') || undefined;
  return {
    id,
    issuer,
    ...(acs ? { assertionConsumerServiceUrl: acs } : {}),
    ...(binding2 ? { protocolBinding: binding2 } : {}),
    ...(dest ? { destination: dest } : {}),
    forceAuthn: root.getAttribute('ForceAuthn') === 'true',
    isPassive: root.getAttribute('IsPassive') === 'true',
  };
}
