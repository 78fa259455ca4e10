/**
 * Host-contract methods and events of the federation workbench, token-service side: the
 * account (providers, roles), AssumeRoleWithSAML / AssumeRoleWithWebIdentity and
 * GetCallerIdentity through @aws-sdk/client-sts at the STS base URL (embedded or real AWS),
 * writing the credentials out, and the sessions the embedded STS issued.
 * The assertion comes from `federation.capture`, the token from `federation.passwordGrant`.
 */

export interface StsSamlProviderInfo {
  arn: string;
  name: string;
  /** The issuer accepted in assertions (entityID of the uploaded metadata). */
  entityId: string;
  /** SHA-256 fingerprints of the signing certificates, AA:BB:… */
  certificateFingerprints: string[];
  createDate: string;
  validUntil?: string;
}

export interface StsOidcProviderInfo {
  arn: string;
  url: string;
  clientIds: string[];
  thumbprints: string[];
  createDate: string;
}

export interface StsRoleInfo {
  arn: string;
  name: string;
  roleId: string;
  maxSessionDuration: number;
  description?: string;
  /** The AssumeRolePolicyDocument as JSON. */
  trustPolicy: unknown;
  /** Provider ARNs the trust policy names, with the action each may use. */
  trustedProviders: { providerArn: string; action: string }[];
  createDate: string;
}

export interface StsAccountInfo {
  accountId: string;
  /** The Query API base URL the calls below use. */
  endpoint: string;
  /** Download URL of the sign-in SAML metadata an IdP imports. */
  signinMetadataUrl: string;
  samlProviders: StsSamlProviderInfo[];
  oidcProviders: StsOidcProviderInfo[];
  roles: StsRoleInfo[];
  /** Demo providers still waiting for the IdP, and why. */
  seedPending: string[];
  seedErrors: Record<string, string>;
}

export interface StsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** RFC 3339 */
  expiration: string;
}

export interface StsAssumeResult {
  credentials: StsCredentials;
  assumedRoleUser: { arn: string; assumedRoleId: string };
  requestId?: string;
  /** AssumeRoleWithSAML */
  subject?: string;
  subjectType?: string;
  issuer?: string;
  audience?: string;
  nameQualifier?: string;
  /** AssumeRoleWithWebIdentity */
  subjectFromWebIdentityToken?: string;
  provider?: string;
}

export interface StsAssumeWithSamlParams {
  /** Base64 SAMLResponse as captured. */
  samlResponse: string;
  roleArn: string;
  principalArn: string;
  durationSeconds?: number;
}

export interface StsAssumeWithWebIdentityParams {
  webIdentityToken: string;
  roleArn: string;
  roleSessionName: string;
  durationSeconds?: number;
  providerId?: string;
}

export interface StsCallerIdentity {
  arn: string;
  userId: string;
  account: string;
}

export type StsCredentialsTarget =
  | { kind: 'profile'; profile: string; /** Default: AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials */ file?: string; region?: string }
  | { kind: 'credential_process' }
  | { kind: 'env'; shell?: 'sh' | 'fish' | 'powershell' };

export interface StsWriteCredentialsResult {
  /** The file written (profile target). */
  file?: string;
  /** What to show or copy: the JSON for credential_process, the export lines for env. */
  text?: string;
}

export interface StsSessionInfo {
  accessKeyId: string;
  roleArn: string;
  assumedRoleArn: string;
  sessionName: string;
  via: 'AssumeRoleWithSAML' | 'AssumeRoleWithWebIdentity';
  providerArn: string;
  subject: string;
  issuedAt: string;
  expiration: string;
  expired: boolean;
  /** Seconds left, 0 when expired. */
  remainingSeconds: number;
}

/** An STS error as the SDK surfaced it, carried as HostCallError detail. */
export interface StsErrorDetail {
  Code: string;
  Message: string;
  Type?: string;
  httpStatusCode?: number;
  requestId?: string;
}

export interface StsCreateSamlProviderParams {
  name: string;
  /** The IdP metadata document, or a URL to download it from (e.g. a realm's SAML descriptor). */
  metadataXml?: string;
  metadataUrl?: string;
  /** Replace a provider of the same name (IAM's UpdateSAMLProvider). */
  replace?: boolean;
}

export interface StsCreateOidcProviderParams {
  /** https://… Provider URL; its discovery document and JWKS are fetched over pinned HTTPS. */
  url: string;
  clientIds: string[];
  /** SHA-1 hex; empty or absent: the thumbprint the server presents now is recorded. */
  thumbprints?: string[];
  replace?: boolean;
}

export interface StsCreateRoleParams {
  name: string;
  /** AssumeRolePolicyDocument (object or JSON text). */
  trustPolicy: unknown;
  /** 3600–43200 seconds; default 3600. */
  maxSessionDuration?: number;
  description?: string;
  replace?: boolean;
}

export interface FederationStsMethods {
  'federation.stsCreateSamlProvider'(params: StsCreateSamlProviderParams): StsSamlProviderInfo;
  'federation.stsCreateOidcProvider'(params: StsCreateOidcProviderParams): StsOidcProviderInfo;
  'federation.stsCreateRole'(params: StsCreateRoleParams): StsRoleInfo;
  'federation.stsDelete'(params: { kind: 'samlProvider' | 'oidcProvider' | 'role'; arn: string }): { deleted: string };
  'federation.stsAccount'(params: Record<string, never>): StsAccountInfo;
  'federation.assumeRoleWithSaml'(params: StsAssumeWithSamlParams): StsAssumeResult;
  'federation.assumeRoleWithWebIdentity'(params: StsAssumeWithWebIdentityParams): StsAssumeResult;
  'federation.callerIdentity'(params: { credentials: StsCredentials }): StsCallerIdentity;
  'federation.writeCredentials'(params: { credentials: StsCredentials; target: StsCredentialsTarget }): StsWriteCredentialsResult;
  'federation.stsSessions'(params: Record<string, never>): StsSessionInfo[];
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FederationStsEvents {}
