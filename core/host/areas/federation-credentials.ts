/**
 * Host implementation of the credentials methods (see ../contract/federation-credentials.ts):
 * copy formats, writing an AWS profile with a backup of what was there, and the saved sign-in
 * profiles. Credentials written as a profile are also cached for `loupe credential-process`.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { AreaMethods } from '../area.js';
import { HostCallError } from '../area.js';
import type { FederationCredentialsMethods, SignInProfileInfo } from '../contract/federation-credentials.js';
import {
  ClientSecrets,
  CredentialCache,
  EXPORT_FORMATS,
  SignInProfiles,
  formatCredentials,
  signInProfileSchema,
  writeConfigCredentialProcess,
  writeCredentialsProfile,
} from '../../federation/credentials/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const profileName = z.string().regex(/^[A-Za-z0-9_.@+-]{1,64}$/, 'letters, digits and _ . @ + - only');
const credentials = z.object({ accessKeyId: z.string().min(16), secretAccessKey: z.string().min(1), sessionToken: z.string().min(1), expiration: z.string().min(1) }).strict();

const quote = (s: string) => (/^[A-Za-z0-9_./:@+-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

/** The command the AWS CLI runs for a profile: this checkout's `loupe`, on this data folder. */
export function credentialProcessCommand(profile: string, dataDir: string): string {
  return [process.execPath, path.join(ROOT, 'bin', 'loupe.mjs'), 'credential-process', '--profile', profile, '--data-dir', dataDir].map(quote).join(' ');
}

function fail<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EACCES' || e.code === 'EPERM') throw new HostCallError(`Permission denied writing ${e.path ?? 'the file'}: choose another file, or fix its owner and mode.`);
    if (err instanceof HostCallError) throw err;
    throw new HostCallError((err as Error).message);
  });
}

export const federationCredentialsArea: AreaMethods<keyof FederationCredentialsMethods & string> = {
  'federation.formatCredentials': {
    params: z.object({ credentials, format: z.enum(EXPORT_FORMATS), profile: profileName.optional(), region: z.string().min(1).optional() }).strict(),
    summary: 'credentials as env exports (bash/zsh, fish, PowerShell), a credentials-file profile, or credential_process JSON',
    handler: (p) => ({ text: formatCredentials(p.credentials, p.format, p.profile ?? 'default', p.region) }),
  },
  'federation.writeProfile': {
    params: z
      .object({
        credentials,
        profile: profileName,
        credentialsFile: z.string().min(1).optional(),
        credentialProcess: z.boolean().optional(),
        configFile: z.string().min(1).optional(),
        region: z.string().min(1).optional(),
        signIn: signInProfileSchema.omit({ name: true, lastUsedAt: true }).optional(),
      })
      .strict(),
    summary: 'write a profile to ~/.aws/credentials (0600, other profiles kept, a backup kept) and optionally a credential_process entry to ~/.aws/config',
    handler: (p, rt) =>
      fail(async () => {
        const credentialsFile = p.credentialsFile ?? process.env.AWS_SHARED_CREDENTIALS_FILE ?? path.join(os.homedir(), '.aws', 'credentials');
        const written = await writeCredentialsProfile({ file: credentialsFile, profile: p.profile, credentials: p.credentials, ...(p.region ? { region: p.region } : {}) });
        if (p.signIn) await new SignInProfiles(rt.dataDir).save({ ...p.signIn, name: p.profile });
        await new CredentialCache(rt.dataDir).put(p.profile, { credentials: p.credentials, ...(p.signIn?.roleArn ? { roleArn: p.signIn.roleArn } : {}) });
        let config: { file: string; backup?: string } | undefined;
        let command: string | undefined;
        if (p.credentialProcess) {
          command = credentialProcessCommand(p.profile, rt.dataDir);
          const configFile = p.configFile ?? process.env.AWS_CONFIG_FILE ?? path.join(os.homedir(), '.aws', 'config');
          config = await writeConfigCredentialProcess({ file: configFile, profile: p.profile, command, ...(p.region ? { region: p.region } : {}) });
        }
        return {
          credentialsFile: written.file,
          ...(written.backup ? { credentialsBackup: written.backup } : {}),
          ...(config ? { configFile: config.file, ...(config.backup ? { configBackup: config.backup } : {}) } : {}),
          ...(command ? { command } : {}),
        };
      }),
  },
  'federation.profiles': {
    params: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
    summary: 'saved sign-in profiles and the one used last',
    handler: (_p, rt) => {
      const store = new SignInProfiles(rt.dataDir);
      return { ...store.list(), file: store.file };
    },
  },
  'federation.saveProfile': {
    params: signInProfileSchema as unknown as z.ZodType<SignInProfileInfo>,
    summary: 'save (or replace) a sign-in profile',
    handler: (p, rt) => fail(() => new SignInProfiles(rt.dataDir).save(p)),
  },
  'federation.deleteProfile': {
    params: z.object({ name: profileName }).strict(),
    summary: 'delete a sign-in profile (and its cached credentials)',
    handler: (p, rt) =>
      fail(async () => {
        await new CredentialCache(rt.dataDir).clear(p.name);
        return { deleted: await new SignInProfiles(rt.dataDir).remove(p.name) };
      }),
  },
  'federation.clientSecrets': {
    params: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
    summary: 'whether OIDC client secrets can be kept encrypted here (desktop safeStorage) and for which clients one is',
    handler: (_p, rt) => {
      const store = new ClientSecrets(rt.dataDir, rt.secretCipher);
      return { available: store.available(), clients: store.clients() };
    },
  },
  'federation.saveClientSecret': {
    params: z.object({ clientId: z.string().min(1), secret: z.string().min(1) }).strict(),
    summary: "keep an OIDC client's secret, encrypted with the OS keychain (desktop only)",
    handler: (p, rt) =>
      fail(async () => {
        await new ClientSecrets(rt.dataDir, rt.secretCipher).set(p.clientId, p.secret);
        return { saved: true };
      }),
  },
  'federation.forgetClientSecret': {
    params: z.object({ clientId: z.string().min(1) }).strict(),
    summary: "forget an OIDC client's kept secret",
    handler: (p, rt) =>
      fail(async () => {
        const store = new ClientSecrets(rt.dataDir, rt.secretCipher);
        const had = store.clients().includes(p.clientId);
        await store.remove(p.clientId);
        return { forgotten: had };
      }),
  },
  'federation.useProfile': {
    params: z.object({ name: profileName }).strict(),
    summary: 'mark a sign-in profile as used now (preselected next time)',
    handler: (p, rt) =>
      fail(async () => {
        const store = new SignInProfiles(rt.dataDir);
        if (!store.get(p.name)) throw new HostCallError(`There is no sign-in profile named ${p.name}`);
        await store.touch(p.name);
        return { lastUsed: p.name };
      }),
  },
};
