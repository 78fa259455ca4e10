/**
 * The Federation workbench's state and actions: where to sign in (SAML client, SSO URL, OIDC
 * client, saved profiles), the capture under way and its progress, the assertion or token, the
 * role chosen, the credentials and what was done with them. Components read it and render;
 * every host call goes through the bridge.
 */
import { create } from 'zustand';
import type {
  CaptureEnvironment,
  CaptureProgressEvent,
  CapturedAssertion,
  CredentialsFormat,
  IdpClientInfo,
  PasswordGrantResult,
  SignInProfileInfo,
  StsAccountInfo,
  StsAssumeResult,
  StsCallerIdentity,
  WriteProfileResult,
} from '../../../core/host/contract.js';
import { bridge, HostError } from '../../bridge.js';
import { defaultDuration } from './checks.js';
import { explainError, type Explained } from './explain-error.js';

export const REALM = 'federation';

export type Flow = 'saml' | 'oidc';
export type Phase = 'idle' | 'running' | 'done' | 'error';

export interface RoleChoice {
  roleArn: string;
  /** SAML: the provider ARN paired with the role. */
  principalArn?: string;
}

export interface OidcForm {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}

export interface FederationState {
  /** What the page needs first: the IdP's SAML clients, the STS account, the capture environment. */
  setup: { phase: Phase; error?: Explained };
  clients: IdpClientInfo[];
  account: StsAccountInfo | null;
  environment: CaptureEnvironment | null;
  profiles: SignInProfileInfo[];
  lastUsedProfile?: string;
  /** The chosen profile, if the sign-in came from one. */
  profile?: string;

  flow: Flow;
  /** SAML: the IdP-initiated client (urlName) or a custom SSO URL. */
  samlSource: { urlName: string } | { ssoUrl: string };
  capture: { phase: Phase; captureId?: string; progress: CaptureProgressEvent[]; error?: Explained };
  assertion: CapturedAssertion | null;

  oidcOpen: boolean;
  oidc: OidcForm;
  /** Client secrets kept encrypted by the OS (desktop): whether possible, and for which clients. */
  secrets: { available: boolean; clients: string[] };
  rememberSecret: boolean;
  setRememberSecret(on: boolean): void;
  forgetSecret(clientId: string): Promise<void>;
  token: { phase: Phase; result?: PasswordGrantResult; error?: Explained };

  role: RoleChoice | null;
  durationSeconds: number;

  credentials: { phase: Phase; result?: StsAssumeResult; error?: Explained; via?: 'AssumeRoleWithSAML' | 'AssumeRoleWithWebIdentity' };
  verify: { phase: Phase; identity?: StsCallerIdentity; error?: Explained };
  copyFormat: CredentialsFormat;
  copied: { phase: Phase; text?: string; error?: Explained };
  /** The credentials in the chosen copy format (shown masked unless revealed). */
  preview: string | null;
  loadPreview(): Promise<void>;
  write: { phase: Phase; result?: WriteProfileResult; error?: Explained };
  writeName: string;
  writeCredentialProcess: boolean;

  load(): Promise<void>;
  /** Follows capture progress events; returns the disposer. */
  connect(): () => void;
  setSamlSource(src: FederationState['samlSource']): void;
  signInWithSaml(): Promise<void>;
  cancelCapture(): Promise<void>;
  openOidc(open: boolean): void;
  editOidc(change: Partial<OidcForm>): void;
  signInWithPassword(): Promise<void>;
  /** Authorization code + PKCE in the capture browser (loopback redirect), then the same as the password grant. */
  signInWithOidcBrowser(): Promise<void>;
  chooseRole(role: RoleChoice): void;
  setDuration(seconds: number): void;
  getCredentials(): Promise<void>;
  verifyCredentials(): Promise<void>;
  setCopyFormat(f: CredentialsFormat): void;
  copy(): Promise<void>;
  setWriteName(name: string): void;
  setWriteCredentialProcess(on: boolean): void;
  writeProfile(): Promise<void>;
  /** One click: the saved profile's source, role and duration, then sign in. */
  signInWithProfile(name: string): Promise<void>;
  deleteProfile(name: string): Promise<void>;
  /** Back to the sign-in step with the same source (expired credentials or assertion). */
  signInAgain(): Promise<void>;
}

const explain = (err: unknown): Explained =>
  explainError(err instanceof HostError ? { message: err.message, code: err.code, detail: err.detail } : { message: (err as Error)?.message ?? String(err) });

let captureCounter = 0;

const freshResults = {
  preview: null,
  credentials: { phase: 'idle' as Phase },
  verify: { phase: 'idle' as Phase },
  copied: { phase: 'idle' as Phase },
  write: { phase: 'idle' as Phase },
};

export function roleMax(account: StsAccountInfo | null, roleArn: string | undefined): { name: string; maxSessionDuration: number } | undefined {
  const r = account?.roles.find((x) => x.arn === roleArn);
  return r ? { name: r.name, maxSessionDuration: r.maxSessionDuration } : undefined;
}

/** Roles of the embedded account a web identity may assume (their trust names an OIDC provider). */
export function webIdentityRoles(account: StsAccountInfo | null): RoleChoice[] {
  return (account?.roles ?? []).filter((r) => r.trustedProviders.some((t) => t.action === 'sts:AssumeRoleWithWebIdentity')).map((r) => ({ roleArn: r.arn }));
}


/** Keeps the typed client secret, encrypted by the OS, when the user asked for it (desktop only). */
async function keepSecretIfAsked(get: () => FederationState, set: (p: Partial<FederationState>) => void): Promise<void> {
  const { rememberSecret, secrets, oidc } = get();
  if (!rememberSecret || !secrets.available || !oidc.clientSecret) return;
  await bridge().invoke('federation.saveClientSecret', { clientId: oidc.clientId, secret: oidc.clientSecret });
  set({ secrets: await bridge().invoke('federation.clientSecrets', {}) });
}

export const useFederation = create<FederationState>()((set, get) => ({
  setup: { phase: 'idle' },
  clients: [],
  account: null,
  environment: null,
  profiles: [],
  flow: 'saml',
  samlSource: { urlName: 'cloud' },
  capture: { phase: 'idle', progress: [] },
  assertion: null,
  oidcOpen: false,
  oidc: { clientId: 'loupe-cli', clientSecret: '', username: '', password: '' },
  secrets: { available: false, clients: [] },
  rememberSecret: false,

  setRememberSecret(rememberSecret) {
    set({ rememberSecret });
  },

  async forgetSecret(clientId) {
    await bridge().invoke('federation.forgetClientSecret', { clientId }).catch(() => undefined);
    const secrets = await bridge().invoke('federation.clientSecrets', {}).catch(() => null);
    if (secrets) set({ secrets });
  },
  token: { phase: 'idle' },
  role: null,
  durationSeconds: 3600,
  ...freshResults,
  copyFormat: 'env',
  writeName: 'loupe',
  writeCredentialProcess: true,

  async load() {
    set({ setup: { phase: 'running' } });
    const b = bridge();
    try {
      const [clients, environment, profiles] = await Promise.all([
        b.invoke('federation.clients', { realm: REALM }).catch(() => [] as IdpClientInfo[]),
        b.invoke('federation.captureEnvironment', { realm: REALM }),
        b.invoke('federation.profiles', {}),
      ]);
      // The account is the embedded token service's; a remote STS has none to list.
      const account = await b.invoke('federation.stsAccount', {}).catch(() => null);
      const secrets = await b.invoke('federation.clientSecrets', {}).catch(() => ({ available: false, clients: [] as string[] }));
      set({ secrets, clients, environment, account, profiles: profiles.profiles, ...(profiles.lastUsed ? { lastUsedProfile: profiles.lastUsed } : {}), setup: { phase: 'done' } });
    } catch (err) {
      set({ setup: { phase: 'error', error: explain(err) } });
    }
  },

  connect() {
    return bridge().subscribe('federation.capture.progress', (e) => {
      const c = get().capture;
      if (c.captureId === e.captureId) set({ capture: { ...c, progress: [...c.progress, e] } });
    });
  },

  setSamlSource(samlSource) {
    set({ samlSource });
  },

  async signInWithSaml() {
    const captureId = `ui-${Date.now().toString(36)}-${++captureCounter}`;
    set({ flow: 'saml', capture: { phase: 'running', captureId, progress: [] }, assertion: null, role: null, token: { phase: 'idle' }, ...freshResults });
    const src = get().samlSource;
    try {
      const assertion = await bridge().invoke('federation.capture', { ...('ssoUrl' in src ? { ssoUrl: src.ssoUrl } : { realm: REALM, urlName: src.urlName }), captureId });
      if (get().capture.captureId !== captureId) return;
      const saved = get().profile ? get().profiles.find((p) => p.name === get().profile) : undefined;
      const preferred = assertion.roles.find((r) => r.roleArn === saved?.roleArn) ?? (assertion.roles.length === 1 ? assertion.roles[0] : undefined);
      const role = preferred ? { roleArn: preferred.roleArn, principalArn: preferred.principalArn } : null;
      set({
        assertion,
        role,
        durationSeconds: saved?.durationSeconds ?? defaultDuration(assertion, roleMax(get().account, role?.roleArn)),
        capture: { ...get().capture, phase: 'done' },
      });
    } catch (err) {
      if (get().capture.captureId !== captureId) return;
      set({ capture: { ...get().capture, phase: 'error', error: explain(err) } });
    }
  },

  async cancelCapture() {
    const id = get().capture.captureId;
    if (id && get().capture.phase === 'running') await bridge().invoke('federation.cancelCapture', { captureId: id }).catch(() => undefined);
  },

  openOidc(open) {
    set({ oidcOpen: open });
  },

  editOidc(change) {
    set({ oidc: { ...get().oidc, ...change } });
  },

  async signInWithPassword() {
    const f = get().oidc;
    set({ flow: 'oidc', token: { phase: 'running' }, assertion: null, capture: { phase: 'idle', progress: [] }, role: null, ...freshResults });
    try {
      await keepSecretIfAsked(get, set);
      const result = await bridge().invoke('federation.passwordGrant', {
        realm: REALM,
        clientId: f.clientId,
        ...(f.clientSecret ? { clientSecret: f.clientSecret } : {}),
        username: f.username,
        password: f.password,
        scope: 'openid',
        https: true,
      });
      const choices = webIdentityRoles(get().account);
      const saved = get().profile ? get().profiles.find((p) => p.name === get().profile) : undefined;
      const role = choices.find((r) => r.roleArn === saved?.roleArn) ?? (choices.length === 1 ? choices[0]! : null);
      set({ token: { phase: 'done', result }, oidc: { ...f, password: '' }, role, durationSeconds: saved?.durationSeconds ?? 3600 });
    } catch (err) {
      set({ token: { phase: 'error', error: explain(err) } });
    }
  },

  async signInWithOidcBrowser() {
    const f = get().oidc;
    const captureId = `ui-${Date.now().toString(36)}-${++captureCounter}`;
    set({ flow: 'oidc', token: { phase: 'running' }, assertion: null, capture: { phase: 'running', captureId, progress: [] }, role: null, ...freshResults });
    try {
      await keepSecretIfAsked(get, set);
      const result = await bridge().invoke('federation.oidcSignIn', { realm: REALM, clientId: f.clientId, ...(f.clientSecret ? { clientSecret: f.clientSecret } : {}), captureId });
      if (get().capture.captureId !== captureId) return;
      const choices = webIdentityRoles(get().account);
      const saved = get().profile ? get().profiles.find((p) => p.name === get().profile) : undefined;
      const role = choices.find((r) => r.roleArn === saved?.roleArn) ?? (choices.length === 1 ? choices[0]! : null);
      set({ token: { phase: 'done', result }, capture: { ...get().capture, phase: 'done' }, role, durationSeconds: saved?.durationSeconds ?? 3600 });
    } catch (err) {
      if (get().capture.captureId !== captureId) return;
      set({ token: { phase: 'error', error: explain(err) }, capture: { ...get().capture, phase: 'idle' } });
    }
  },

  chooseRole(role) {
    const a = get().assertion;
    set({ role, ...freshResults, durationSeconds: a ? defaultDuration(a, roleMax(get().account, role.roleArn)) : get().durationSeconds });
  },

  setDuration(durationSeconds) {
    set({ durationSeconds });
  },

  async getCredentials() {
    const { flow, assertion, token, role, durationSeconds } = get();
    if (!role) return;
    set({ credentials: { phase: 'running' }, verify: { phase: 'idle' }, copied: { phase: 'idle' }, write: { phase: 'idle' } });
    try {
      let result: StsAssumeResult;
      if (flow === 'saml' && assertion) {
        result = await bridge().invoke('federation.assumeRoleWithSaml', { samlResponse: assertion.samlResponse, roleArn: role.roleArn, principalArn: role.principalArn!, durationSeconds });
      } else if (flow === 'oidc' && token.result) {
        const claims = token.result.claims;
        const sessionName = String(claims.preferred_username ?? claims.sub ?? 'loupe').replace(/[^\w+=,.@-]/g, '-').slice(0, 64);
        result = await bridge().invoke('federation.assumeRoleWithWebIdentity', { webIdentityToken: token.result.response.access_token, roleArn: role.roleArn, roleSessionName: sessionName.length >= 2 ? sessionName : 'loupe', durationSeconds });
      } else return;
      set({ credentials: { phase: 'done', result, via: flow === 'saml' ? 'AssumeRoleWithSAML' : 'AssumeRoleWithWebIdentity' } });
      void get().loadPreview();
      const name = get().profile;
      if (name) void bridge().invoke('federation.useProfile', { name }).catch(() => undefined);
    } catch (err) {
      set({ credentials: { phase: 'error', error: explain(err) } });
    }
  },

  async verifyCredentials() {
    const c = get().credentials.result?.credentials;
    if (!c) return;
    set({ verify: { phase: 'running' } });
    try {
      set({ verify: { phase: 'done', identity: await bridge().invoke('federation.callerIdentity', { credentials: c }) } });
    } catch (err) {
      set({ verify: { phase: 'error', error: explain(err) } });
    }
  },

  setCopyFormat(copyFormat) {
    set({ copyFormat, copied: { phase: 'idle' } });
    void get().loadPreview();
  },

  async loadPreview() {
    const c = get().credentials.result?.credentials;
    if (!c) return set({ preview: null });
    const format = get().copyFormat;
    const name = /^[A-Za-z0-9_.@+-]{1,64}$/.test(get().writeName) ? get().writeName : 'default';
    const { text } = await bridge().invoke('federation.formatCredentials', { credentials: c, format, profile: name }).catch(() => ({ text: null }));
    if (get().copyFormat === format) set({ preview: text });
  },

  async copy() {
    const c = get().credentials.result?.credentials;
    if (!c) return;
    set({ copied: { phase: 'running' } });
    try {
      const name = /^[A-Za-z0-9_.@+-]{1,64}$/.test(get().writeName) ? get().writeName : 'default';
    const { text } = await bridge().invoke('federation.formatCredentials', { credentials: c, format: get().copyFormat, profile: name });
      await navigator.clipboard.writeText(text).catch(() => {
        throw new Error('The browser did not allow writing to the clipboard; select the text below and copy it.');
      });
      set({ copied: { phase: 'done', text } });
    } catch (err) {
      set({ copied: { phase: 'error', error: explain(err) } });
    }
  },

  setWriteName(writeName) {
    set({ writeName, write: { phase: 'idle' } });
    if (get().copyFormat === 'ini') void get().loadPreview();
  },

  setWriteCredentialProcess(writeCredentialProcess) {
    set({ writeCredentialProcess });
  },

  async writeProfile() {
    const { credentials, writeName, writeCredentialProcess, flow, samlSource, role, durationSeconds, oidc } = get();
    const c = credentials.result?.credentials;
    if (!c) return;
    set({ write: { phase: 'running' } });
    const signIn =
      flow === 'saml'
        ? { kind: 'saml' as const, ...('ssoUrl' in samlSource ? { ssoUrl: samlSource.ssoUrl } : { realm: REALM, urlName: samlSource.urlName }), ...(role ? { roleArn: role.roleArn, ...(role.principalArn ? { principalArn: role.principalArn } : {}) } : {}), durationSeconds }
        : { kind: 'oidc' as const, realm: REALM, clientId: oidc.clientId, ...(oidc.username ? { username: oidc.username } : {}), ...(role ? { roleArn: role.roleArn } : {}), durationSeconds };
    try {
      const result = await bridge().invoke('federation.writeProfile', { credentials: c, profile: writeName, credentialProcess: writeCredentialProcess, signIn });
      const profiles = await bridge().invoke('federation.profiles', {});
      await bridge().invoke('federation.useProfile', { name: writeName }).catch(() => undefined);
      set({ write: { phase: 'done', result }, profiles: profiles.profiles, lastUsedProfile: writeName, profile: writeName });
    } catch (err) {
      set({ write: { phase: 'error', error: explain(err) } });
    }
  },

  async signInWithProfile(name) {
    const p = get().profiles.find((x) => x.name === name);
    if (!p) return;
    set({ profile: name, writeName: name, lastUsedProfile: name, ...(p.durationSeconds ? { durationSeconds: p.durationSeconds } : {}) });
    void bridge().invoke('federation.useProfile', { name }).catch(() => undefined);
    if (p.kind === 'saml') {
      set({ samlSource: p.ssoUrl ? { ssoUrl: p.ssoUrl } : { urlName: p.urlName ?? 'cloud' } });
      await get().signInWithSaml();
    } else {
      set({ oidcOpen: true, flow: 'oidc', oidc: { ...get().oidc, ...(p.clientId ? { clientId: p.clientId } : {}), ...(p.username ? { username: p.username } : {}), password: '' } });
    }
  },

  async deleteProfile(name) {
    await bridge().invoke('federation.deleteProfile', { name }).catch(() => undefined);
    const profiles = await bridge().invoke('federation.profiles', {}).catch(() => null);
    if (profiles) set({ profiles: profiles.profiles, ...(get().profile === name ? { profile: undefined } : {}) });
  },

  async signInAgain() {
    if (get().flow === 'saml') await get().signInWithSaml();
    else set({ oidcOpen: true, token: { phase: 'idle' }, ...freshResults });
  },
}));
