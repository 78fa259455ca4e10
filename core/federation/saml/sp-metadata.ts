/**
 * Reads a service provider's SAML metadata (what a cloud publishes for its sign-in service) into
 * what the IdP needs to register it as a client: the entity id and the HTTP-POST assertion
 * consumer URLs, default first.
 */
import type { Element } from '@xmldom/xmldom';
import { NS, parseUntrustedXml, childElements, XmlInputError, textOf } from './xml.js';

export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export interface SpMetadata {
  entityId: string;
  /** HTTP-POST assertion consumer URLs; the default (isDefault, else lowest index) first. */
  acsUrls: string[];
  nameIdFormats: string[];
  /** Attributes the SP asks for (RequestedAttribute Name), e.g. the cloud's Role attribute. */
  requestedAttributes: { name: string; friendlyName?: string; required: boolean }[];
  wantAssertionsSigned: boolean;
  serviceName?: string;
  /** The HTTP-POST SingleLogoutService, where a LogoutResponse goes. */
  logoutUrl?: string;
}

export function parseSpMetadata(xml: string): SpMetadata {
  const doc = parseUntrustedXml(xml);
  const root = doc.documentElement!;
  let entity: Element | undefined;
  if (root.namespaceURI === NS.metadata && root.localName === 'EntityDescriptor') entity = root;
  else if (root.namespaceURI === NS.metadata && root.localName === 'EntitiesDescriptor') {
    entity = childElements(root, NS.metadata, 'EntityDescriptor').find((e) => childElements(e, NS.metadata, 'SPSSODescriptor').length > 0);
  }
  if (!entity) throw new XmlInputError('not SAML metadata: expected an md:EntityDescriptor with an SPSSODescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) throw new XmlInputError('the EntityDescriptor has no entityID');
  const sp = childElements(entity, NS.metadata, 'SPSSODescriptor')[0];
  if (!sp) throw new XmlInputError(`entity ${entityId} has no SPSSODescriptor (is this an identity provider's metadata?)`);
  const acs = childElements(sp, NS.metadata, 'AssertionConsumerService')
    .filter((e) => e.getAttribute('Binding') === HTTP_POST && e.getAttribute('Location'))
    .map((e) => ({ url: e.getAttribute('Location')!, index: Number(e.getAttribute('index') ?? '0'), isDefault: e.getAttribute('isDefault') === 'true' }))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.index - b.index);
  if (acs.length === 0) throw new XmlInputError(`entity ${entityId} has no AssertionConsumerService with the HTTP-POST binding`);
  const logoutUrl = childElements(sp, NS.metadata, 'SingleLogoutService').find((e) => e.getAttribute('Binding') === HTTP_POST)?.getAttribute('Location') || undefined;
  const requested: SpMetadata['requestedAttributes'] = [];
  let serviceName: string | undefined;
  for (const svc of childElements(sp, NS.metadata, 'AttributeConsumingService')) {
    serviceName ??= textOf(childElements(svc, NS.metadata, 'ServiceName')[0]) || undefined;
    for (const ra of childElements(svc, NS.metadata, 'RequestedAttribute')) {
      const friendly = ra.getAttribute('FriendlyName');
      requested.push({ name: ra.getAttribute('Name') ?? '', ...(friendly ? { friendlyName: friendly } : {}), required: ra.getAttribute('isRequired') === 'true' });
    }
  }
  return {
    entityId,
    acsUrls: [...new Set(acs.map((a) => a.url))],
    nameIdFormats: childElements(sp, NS.metadata, 'NameIDFormat').map((e) => textOf(e).trim()),
    requestedAttributes: requested,
    wantAssertionsSigned: sp.getAttribute('WantAssertionsSigned') === 'true',
    ...(serviceName ? { serviceName } : {}),
    ...(logoutUrl ? { logoutUrl } : {}),
  };
}
