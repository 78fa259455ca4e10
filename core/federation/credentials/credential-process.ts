/**
 * The JSON a `credential_process` command prints (AWS CLI/SDK contract, as aws-vault, granted
 * and saml2aws --credential-process emit it).
 */
import type { AwsCredentials } from './types.js';

export function credentialProcessJson(c: AwsCredentials): string {
  return JSON.stringify({ Version: 1, AccessKeyId: c.accessKeyId, SecretAccessKey: c.secretAccessKey, SessionToken: c.sessionToken, Expiration: c.expiration });
}

/** The `credential_process = …` line for a profile in ~/.aws/config that runs `command`. */
export function credentialProcessConfigLine(command: string): string {
  return `credential_process = ${command}`;
}
