/**
 * Writes one profile of an `~/.aws/credentials`-style INI file: the profile's credential keys
 * are replaced, every other profile, key and comment is kept as it was, and the file is
 * replaced atomically with mode 0600.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../common/json-store.js';
import type { AwsCredentials } from './types.js';

export interface ProfileWrite {
  file: string;
  profile: string;
  credentials: AwsCredentials;
  /** Written as `region` when given. */
  region?: string;
}

const PROFILE_NAME = /^[A-Za-z0-9_.@+-]{1,64}$/;

export interface ProfileWritten {
  file: string;
  /** The previous content, kept as `<file>.loupe-backup` (0600) when there was one. */
  backup?: string;
}

export function checkProfileName(profile: string): void {
  if (!PROFILE_NAME.test(profile)) throw new Error(`profile name must match ${PROFILE_NAME.source}, got "${profile}"`);
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return undefined;
  }
}

/** Replaces `file` with `next`, 0600, after keeping what was there as `<file>.loupe-backup`. */
async function replaceKeepingBackup(file: string, before: string | undefined, next: string): Promise<ProfileWritten> {
  let backup: string | undefined;
  if (before !== undefined && before !== next) {
    backup = path.join(path.dirname(file), `${path.basename(file)}.loupe-backup`);
    await writeFileAtomic(backup, before, { mode: 0o600 });
  }
  await writeFileAtomic(file, next, { mode: 0o600 });
  return { file, ...(backup ? { backup } : {}) };
}

export async function writeCredentialsProfile(w: ProfileWrite): Promise<ProfileWritten> {
  checkProfileName(w.profile);
  const before = await readIfThere(w.file);
  const text = before ?? '';
  const values: Record<string, string> = {
    aws_access_key_id: w.credentials.accessKeyId,
    aws_secret_access_key: w.credentials.secretAccessKey,
    aws_session_token: w.credentials.sessionToken,
    // saml2aws's key for the expiry; the AWS CLI and SDKs ignore keys they do not know.
    x_security_token_expires: w.credentials.expiration,
    ...(w.region ? { region: w.region } : {}),
  };
  return replaceKeepingBackup(w.file, before, upsertSection(text, w.profile, values));
}

/**
 * Adds or updates `[profile NAME]` in ~/.aws/config (`[default]` for the default profile) with a
 * `credential_process` line, so the AWS CLI and SDKs ask Loupe for credentials when they need them.
 */
export async function writeConfigCredentialProcess(w: { file: string; profile: string; command: string; region?: string }): Promise<ProfileWritten> {
  checkProfileName(w.profile);
  const before = await readIfThere(w.file);
  const section = w.profile === 'default' ? 'default' : `profile ${w.profile}`;
  return replaceKeepingBackup(w.file, before, upsertSection(before ?? '', section, { credential_process: w.command, ...(w.region ? { region: w.region } : {}) }));
}

/** Replaces or adds `values` in section `[name]`, leaving everything else byte for byte. */
export function upsertSection(text: string, name: string, values: Record<string, string>): string {
  const lines = text.length ? text.replace(/\r\n/g, '\n').split('\n') : [];
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const header = (l: string) => /^\s*\[([^\]]+)\]\s*$/.exec(l)?.[1]?.trim();
  const start = lines.findIndex((l) => header(l) === name);
  const rendered = Object.entries(values).map(([k, v]) => `${k} = ${v}`);
  if (start < 0) {
    const out = [...lines];
    if (out.length && out[out.length - 1]!.trim() !== '') out.push('');
    out.push(`[${name}]`, ...rendered);
    return out.join('\n') + '\n';
  }
  let end = start + 1;
  while (end < lines.length && header(lines[end]!) === undefined) end++;
  const body = lines.slice(start + 1, end).filter((l) => {
    const key = /^\s*([^=#;\s]+)\s*=/.exec(l)?.[1];
    return key === undefined || !(key in values);
  });
  // Keep blank lines that separated this section from the next one at the end.
  const trailingBlank: string[] = [];
  while (body.length && body[body.length - 1]!.trim() === '') trailingBlank.unshift(body.pop()!);
  return [...lines.slice(0, start + 1), ...rendered, ...body, ...trailingBlank, ...lines.slice(end)].join('\n') + '\n';
}
