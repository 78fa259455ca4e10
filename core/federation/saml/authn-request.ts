/**
 * Reads an SP's AuthnRequest from the HTTP-Redirect binding (base64 of raw DEFLATE) or the
 * HTTP-POST binding (plain base64).
 */
import { inflateRawSync } from 'node:zlib';
import { NS, parseUntrustedXml, firstChild, textOf } from './xml.js';
import { HTTP_POST } from './sp-metadata.js';
import { checkXmlBounds } from './xml-bounds.js';

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

/**
 * An AuthnRequest is a few hundred bytes to a few KB. Everything is bounded before XML parsing:
 * the encoded size, the inflated size (a deflate bomb stops at the cap, however well it
 * compresses), then elements and depth (xml-bounds.ts).
 */
const MAX_ENCODED = 64 * 1024;
const MAX_XML = 64 * 1024;
const AUTHN_BOUNDS = { maxElements: 200, maxDepth: 20 };

export function decodeAuthnRequest(samlRequest: string, binding: 'redirect' | 'post'): AuthnRequest {
  if (samlRequest.length > MAX_ENCODED) throw new AuthnRequestError(`SAMLRequest is longer than ${MAX_ENCODED} characters`);
  const bytes = Buffer.from(samlRequest.replace(/\s+/g, ''), 'base64');
  let xml: string;
  try {
    xml = binding === 'redirect' ? inflateRawSync(bytes, { maxOutputLength: MAX_XML }).toString('utf8') : bytes.toString('utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new AuthnRequestError(`SAMLRequest inflates to more than ${MAX_XML} bytes`);
    throw new AuthnRequestError('SAMLRequest is not deflated base64 (HTTP-Redirect binding)');
  }
  if (xml.length > MAX_XML) throw new AuthnRequestError(`SAMLRequest is larger than ${MAX_XML} bytes`);
  try {
    checkXmlBounds(xml, AUTHN_BOUNDS);
  } catch (err) {
    throw new AuthnRequestError(`SAMLRequest ${(err as Error).message.replace(/^the document/, 'has')}`);
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
