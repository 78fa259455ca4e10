/** Issues temporary credentials for a role session and records the session. */
import type { Role, SessionRecord } from '../account/model.js';
import type { StsContext } from '../context.js';
import { iso } from '../time.js';
import { newCredentials, type TemporaryCredentials } from './issue-credentials.js';

export interface AssumedRoleUser {
  AssumedRoleId: string;
  Arn: string;
}

export async function issueSession(
  ctx: StsContext,
  role: Role,
  sessionName: string,
  expiresAt: number,
  via: SessionRecord['via'],
  providerArn: string,
  subject: string,
): Promise<{ Credentials: TemporaryCredentials; AssumedRoleUser: AssumedRoleUser }> {
  const creds = newCredentials(expiresAt);
  const user: AssumedRoleUser = {
    AssumedRoleId: `${role.roleId}:${sessionName}`,
    Arn: `arn:aws:sts::${ctx.options.accountId}:assumed-role/${role.name}/${sessionName}`,
  };
  await ctx.store.addSession({ ...creds, issuedAt: iso(ctx.now()), roleArn: role.arn, assumedRoleArn: user.Arn, assumedRoleId: user.AssumedRoleId, sessionName, via, providerArn, subject });
  return { Credentials: creds, AssumedRoleUser: user };
}
