/**
 * Reads an IdP's SAML metadata document the way IAM's CreateSAMLProvider does: the entityID
 * becomes the only accepted issuer and the signing certificates the only accepted keys.
 */
import { X509Certificate } from 'node:crypto';
import { childElements, descendants, NS, parseUntrustedXml, textOf } from '../saml/safe-xml.js';

export interface IdpMetadata {
  entityId: string;
  certificates: string[];
  validUntil?: string;
}

export class MetadataError extends Error {}

export function parseIdpMetadata(xml: string): IdpMetadata {
  let doc;
  try {
    doc = parseUntrustedXml(xml);
  } catch (err) {
    throw new MetadataError(`Could not parse metadata: ${(err as Error).message}`);
  }
  const root = doc.documentElement!;
  const entity =
    root.namespaceURI === NS.metadata && root.localName === 'EntityDescriptor'
      ? root
      : descendants(doc, NS.metadata, 'EntityDescriptor').find((e) => childElements(e, NS.metadata, 'IDPSSODescriptor').length > 0);
  if (!entity) throw new MetadataError('Could not parse metadata: no EntityDescriptor');
  const entityId = entity.getAttribute('entityID');
  if (!entityId) throw new MetadataError('Could not parse metadata: EntityDescriptor has no entityID');
  const idp = childElements(entity, NS.metadata, 'IDPSSODescriptor')[0];
  if (!idp) throw new MetadataError('Could not parse metadata: no IDPSSODescriptor');
  const certificates: string[] = [];
  for (const kd of childElements(idp, NS.metadata, 'KeyDescriptor')) {
    const use = kd.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const c of descendants(kd, NS.dsig, 'X509Certificate')) {
      const pem = toPem(textOf(c) ?? '');
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0) throw new MetadataError('Could not parse metadata: no signing certificate');
  return { entityId, certificates, validUntil: entity.getAttribute('validUntil') ?? undefined };
}

function toPem(base64: string): string {
  const b64 = base64.replace(/\s+/g, '');
  try {
    new X509Certificate(Buffer.from(b64, 'base64'));
  } catch {
    throw new MetadataError('Could not parse metadata: invalid X509Certificate');
  }
  return `-----BEGIN CERTIFICATE-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}
