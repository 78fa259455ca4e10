/**
 * Saved sign-in profiles: how to sign in again with one click or one command (which IdP page or
 * client, which role, how long), and the AWS profile name the credentials go to. Kept in
 * `<data>/federation/profiles.json` (0600); no passwords or client secrets are ever in it.
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonOrBackup, writeJsonAtomic } from '../../common/json-store.js';

export const signInProfileSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.@+-]{1,64}$/, 'letters, digits and _ . @ + - only (it is also the AWS profile name)'),
    kind: z.enum(['saml', 'oidc']),
    /** SAML: a client of the configured IdP (realm + IdP-initiated URL name), or any SSO URL. */
    realm: z.string().min(1).optional(),
    urlName: z.string().min(1).optional(),
    ssoUrl: z.string().url().optional(),
    /** OIDC: the client and (for the password grant) the user. */
    clientId: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    roleArn: z.string().min(20).optional(),
    principalArn: z.string().min(20).optional(),
    durationSeconds: z.number().int().min(900).max(43200).optional(),
    region: z.string().min(1).optional(),
    lastUsedAt: z.string().optional(),
  })
  .strict();

export type SignInProfile = z.infer<typeof signInProfileSchema>;

const fileSchema = z.object({ version: z.literal(1), profiles: z.array(signInProfileSchema), lastUsed: z.string().optional() }).strict();
type ProfilesFile = z.infer<typeof fileSchema>;

export class SignInProfiles {
  readonly file: string;
  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'federation', 'profiles.json');
  }

  read(): ProfilesFile {
    const r = readJsonOrBackup(this.file, (raw) => fileSchema.parse(raw));
    return r.kind === 'ok' ? r.value : { version: 1, profiles: [] };
  }

  list(): { profiles: SignInProfile[]; lastUsed?: string } {
    const f = this.read();
    return { profiles: f.profiles, ...(f.lastUsed ? { lastUsed: f.lastUsed } : {}) };
  }

  get(name: string): SignInProfile | undefined {
    return this.read().profiles.find((p) => p.name === name);
  }

  async save(profile: SignInProfile): Promise<SignInProfile> {
    const p = signInProfileSchema.parse(profile);
    const f = this.read();
    const profiles = [...f.profiles.filter((x) => x.name !== p.name), p].sort((a, b) => a.name.localeCompare(b.name));
    await writeJsonAtomic(this.file, { ...f, profiles }, { mode: 0o600 });
    return p;
  }

  async remove(name: string): Promise<boolean> {
    const f = this.read();
    const profiles = f.profiles.filter((x) => x.name !== name);
    if (profiles.length === f.profiles.length) return false;
    await writeJsonAtomic(this.file, { ...f, profiles, ...(f.lastUsed === name ? { lastUsed: undefined } : {}) }, { mode: 0o600 });
    return true;
  }

  /** Marks a profile as the one used last (preselected next time). */
  async touch(name: string, at = new Date()): Promise<void> {
    const f = this.read();
    const profiles = f.profiles.map((p) => (p.name === name ? { ...p, lastUsedAt: at.toISOString() } : p));
    await writeJsonAtomic(this.file, { ...f, profiles, lastUsed: name }, { mode: 0o600 });
  }
}
