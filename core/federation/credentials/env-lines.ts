/**
 * Environment export lines for a shell (saml2aws `script`, aws-vault `exec`): the three
 * credential variables and AWS_CREDENTIAL_EXPIRATION, quoted so no value can break out.
 */
import type { AwsCredentials } from './types.js';

export type Shell = 'sh' | 'fish' | 'powershell';

export function envVariables(c: AwsCredentials): [string, string][] {
  return [
    ['AWS_ACCESS_KEY_ID', c.accessKeyId],
    ['AWS_SECRET_ACCESS_KEY', c.secretAccessKey],
    ['AWS_SESSION_TOKEN', c.sessionToken],
    ['AWS_CREDENTIAL_EXPIRATION', c.expiration],
  ];
}

export function envLines(c: AwsCredentials, shell: Shell = 'sh'): string[] {
  return envVariables(c).map(([k, v]) => {
    switch (shell) {
      case 'fish':
        return `set -gx ${k} '${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
      case 'powershell':
        return `$env:${k} = '${v.replace(/'/g, "''")}'`;
      default:
        return `export ${k}='${v.replace(/'/g, `'\\''`)}'`;
    }
  });
}
