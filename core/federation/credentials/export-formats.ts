/**
 * Every way the workbench and `loupe creds export` hand credentials over, from one function:
 * shell exports (bash/zsh, fish, PowerShell), an ~/.aws/credentials profile, and the
 * credential_process JSON.
 */
import { credentialProcessJson } from './credential-process.js';
import { envLines } from './env-lines.js';
import type { AwsCredentials } from './types.js';

export const EXPORT_FORMATS = ['env', 'fish', 'powershell', 'ini', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function formatCredentials(c: AwsCredentials, format: ExportFormat, profile = 'default', region?: string): string {
  switch (format) {
    case 'env':
      return envLines(c, 'sh').join('\n') + '\n';
    case 'fish':
      return envLines(c, 'fish').join('\n') + '\n';
    case 'powershell':
      return envLines(c, 'powershell').join('\n') + '\n';
    case 'ini':
      return (
        [
          `[${profile}]`,
          `aws_access_key_id = ${c.accessKeyId}`,
          `aws_secret_access_key = ${c.secretAccessKey}`,
          `aws_session_token = ${c.sessionToken}`,
          `x_security_token_expires = ${c.expiration}`,
          ...(region ? [`region = ${region}`] : []),
        ].join('\n') + '\n'
      );
    case 'json':
      return credentialProcessJson(c) + '\n';
  }
}
