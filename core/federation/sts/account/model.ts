/** What an account holds: the IAM objects the token service checks against. Plain data. */

export interface SamlProvider {
  arn: string;
  name: string;
  /** entityID of the uploaded IdP metadata: the only issuer accepted. */
  entityId: string;
  /** PEM certificates from the metadata's signing KeyDescriptors. */
  certificates: string[];
  /** The uploaded metadata, kept so it can be shown again (as IAM's GetSAMLProvider does). */
  metadataXml: string;
  createDate: string;
  validUntil?: string;
}

export interface OidcProvider {
  arn: string;
  /** https://host[:port]/path, as created; `iss` of accepted tokens must equal it. */
  url: string;
  clientIds: string[];
  /** Lower-case hex SHA-1 of the top certificate of the chain the server presents. */
  thumbprints: string[];
  createDate: string;
}

export type PolicyValue = string | string[];

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal?: { Federated?: PolicyValue; AWS?: PolicyValue; Service?: PolicyValue } | '*';
  Action: PolicyValue;
  Condition?: Record<string, Record<string, PolicyValue>>;
}

export interface PolicyDocument {
  Version: string;
  Statement: PolicyStatement[];
}

export interface Role {
  arn: string;
  name: string;
  /** AROA… unique id, part of AssumedRoleId. */
  roleId: string;
  trustPolicy: PolicyDocument;
  /** Seconds, 3600–43200 as in IAM. */
  maxSessionDuration: number;
  description?: string;
  createDate: string;
}

export interface Account {
  accountId: string;
  samlProviders: SamlProvider[];
  oidcProviders: OidcProvider[];
  roles: Role[];
}

/** A set of temporary credentials the service issued (the secret is kept to verify SigV4). */
export interface SessionRecord {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: string;
  issuedAt: string;
  roleArn: string;
  assumedRoleArn: string;
  assumedRoleId: string;
  sessionName: string;
  via: 'AssumeRoleWithSAML' | 'AssumeRoleWithWebIdentity';
  /** SAML provider or OIDC provider ARN. */
  providerArn: string;
  subject: string;
}

export const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
export const PROVIDER_NAME = /^[\w._-]{1,128}$/;

export const samlProviderArn = (accountId: string, name: string): string => `arn:aws:iam::${accountId}:saml-provider/${name}`;
export const roleArn = (accountId: string, name: string): string => `arn:aws:iam::${accountId}:role/${name}`;
/** IAM names an OIDC provider by its URL without the scheme. */
export const oidcProviderArn = (accountId: string, url: string): string => `arn:aws:iam::${accountId}:oidc-provider/${oidcProviderId(url)}`;
export const oidcProviderId = (url: string): string => url.replace(/^https:\/\//, '').replace(/\/+$/, '');
