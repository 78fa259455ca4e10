/**
 * Host-contract methods of the federation workbench for what happens to credentials once they
 * exist: the copy formats, writing an AWS profile (credentials file and a credential_process
 * entry in the config file), and the saved sign-in profiles behind "sign in again".
 */
import type { StsCredentials } from './federation-sts.js';

export type CredentialsFormat = 'env' | 'fish' | 'powershell' | 'ini' | 'json';

export interface SignInProfileInfo {
  /** Also the AWS profile name the credentials are written to. */
  name: string;
  kind: 'saml' | 'oidc';
  realm?: string;
  urlName?: string;
  ssoUrl?: string;
  clientId?: string;
  username?: string;
  roleArn?: string;
  principalArn?: string;
  durationSeconds?: number;
  region?: string;
  lastUsedAt?: string;
}

export interface WriteProfileParams {
  credentials: StsCredentials;
  profile: string;
  /** Default: AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials. */
  credentialsFile?: string;
  /** Also add `credential_process = loupe credential-process --profile NAME` to the config file. */
  credentialProcess?: boolean;
  /** Default: AWS_CONFIG_FILE or ~/.aws/config. */
  configFile?: string;
  region?: string;
  /** Saved (or replaced) as the sign-in profile of that name, so `loupe credential-process` can sign in again. */
  signIn?: Omit<SignInProfileInfo, 'name' | 'lastUsedAt'>;
}

export interface WriteProfileResult {
  credentialsFile: string;
  /** The previous credentials file, kept. */
  credentialsBackup?: string;
  configFile?: string;
  configBackup?: string;
  /** The credential_process command written. */
  command?: string;
}

export interface FederationCredentialsMethods {
  'federation.formatCredentials'(params: { credentials: StsCredentials; format: CredentialsFormat; profile?: string; region?: string }): { text: string };
  'federation.writeProfile'(params: WriteProfileParams): WriteProfileResult;
  'federation.profiles'(params: Record<string, never>): { profiles: SignInProfileInfo[]; lastUsed?: string; file: string };
  'federation.saveProfile'(params: SignInProfileInfo): SignInProfileInfo;
  'federation.deleteProfile'(params: { name: string }): { deleted: boolean };
  /** Whether client secrets can be kept here (encrypted by the OS: the desktop app), and for which clients one is. */
  'federation.clientSecrets'(params: Record<string, never>): { available: boolean; clients: string[] };
  /** Keeps a client's secret, encrypted with the OS keychain (desktop only); never in settings.json. */
  'federation.saveClientSecret'(params: { clientId: string; secret: string }): { saved: boolean };
  'federation.forgetClientSecret'(params: { clientId: string }): { forgotten: boolean };
  /** Marks a profile as used now; the UI preselects it next time. */
  'federation.useProfile'(params: { name: string }): { lastUsed: string };
}
