/**
 * Keycloak's SAML protocol mappers that a cloud login needs, evaluated for one user and client:
 * role list (the cloud's Role attribute), user property (RoleSessionName from the username) and
 * hard-coded attribute (SessionDuration).
 */
import type { SamlAttribute } from '../saml/response.js';
import type { ProtocolMapper, SamlClientRecord, UserRecord } from './model.js';
import { cloudAttribute } from './model.js';

export const NAME_FORMATS: Record<string, string> = {
  Basic: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
  'URI Reference': 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
  Unspecified: 'urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified',
};

export const MAPPER_TYPES = ['saml-role-list-mapper', 'saml-user-property-mapper', 'saml-user-attribute-mapper', 'saml-hardcode-attribute-mapper'] as const;

export function evaluateMappers(client: SamlClientRecord, user: UserRecord, roles: string[]): SamlAttribute[] {
  const out: SamlAttribute[] = [];
  for (const m of client.protocolMappers) out.push(...evaluate(m, user, roles));
  return out;
}

function evaluate(m: ProtocolMapper, user: UserRecord, roles: string[]): SamlAttribute[] {
  const c = m.config;
  const base = {
    name: c['attribute.name'] ?? m.name,
    ...(c['friendly.name'] ? { friendlyName: c['friendly.name'] } : {}),
    nameFormat: NAME_FORMATS[c['attribute.nameformat'] ?? 'Basic'] ?? NAME_FORMATS.Basic!,
  };
  switch (m.protocolMapper) {
    case 'saml-role-list-mapper':
      if (roles.length === 0) return [];
      // "Single Role Attribute": all roles as values of one Attribute, which the cloud requires.
      return c.single === 'false' ? roles.map((r) => ({ ...base, values: [r] })) : [{ ...base, values: roles }];
    case 'saml-user-property-mapper': {
      const prop = c['user.attribute'] ?? 'username';
      const v = prop === 'username' ? user.username : prop === 'email' ? user.email : prop === 'firstName' ? user.firstName : prop === 'lastName' ? user.lastName : prop === 'id' ? user.id : undefined;
      return v ? [{ ...base, values: [v] }] : [];
    }
    case 'saml-user-attribute-mapper': {
      const vals = user.attributes[c['user.attribute'] ?? ''] ?? [];
      return vals.length ? [{ ...base, values: vals }] : [];
    }
    case 'saml-hardcode-attribute-mapper':
      return c['attribute.value'] !== undefined ? [{ ...base, values: [c['attribute.value']] }] : [];
    default:
      return [];
  }
}

/** The three mappers a cloud client gets (Role, RoleSessionName from the username, SessionDuration). */
export function cloudMappers(cloudDomain: string, opts: { roleSessionName: boolean; sessionDuration?: number }): Omit<ProtocolMapper, 'id'>[] {
  const list: Omit<ProtocolMapper, 'id'>[] = [
    {
      name: 'Role',
      protocol: 'saml',
      protocolMapper: 'saml-role-list-mapper',
      config: { 'attribute.name': cloudAttribute(cloudDomain, 'Role'), 'attribute.nameformat': 'Basic', 'friendly.name': 'Role', single: 'true' },
    },
  ];
  if (opts.roleSessionName) {
    list.push({
      name: 'RoleSessionName',
      protocol: 'saml',
      protocolMapper: 'saml-user-property-mapper',
      config: { 'user.attribute': 'username', 'attribute.name': cloudAttribute(cloudDomain, 'RoleSessionName'), 'attribute.nameformat': 'Basic', 'friendly.name': 'RoleSessionName' },
    });
  }
  if (opts.sessionDuration !== undefined) {
    list.push({
      name: 'SessionDuration',
      protocol: 'saml',
      protocolMapper: 'saml-hardcode-attribute-mapper',
      config: { 'attribute.name': cloudAttribute(cloudDomain, 'SessionDuration'), 'attribute.nameformat': 'Basic', 'attribute.value': String(opts.sessionDuration) },
    });
  }
  return list;
}

