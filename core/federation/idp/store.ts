/**
 * Realms, users, groups, roles and clients, kept in memory and written to `realms.json` (0600:
 * it holds password hashes and client secrets) after every change, atomically.
 */
import path from 'node:path';
import { readJsonOrBackup, writeJsonAtomic } from '../../common/json-store.js';
import { uuid, randomToken } from '../../common/ids.js';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../common/log.js';
import { hashPassword, verifyPassword, burnPasswordCheck } from './passwords.js';
import { MAPPER_TYPES } from './saml-mappers.js';
import {
  IdpError,
  REALM_DEFAULTS,
  DEFAULT_CLOUD_DOMAIN,
  type RealmRecord,
  type UserRecord,
  type GroupRecord,
  type RoleRecord,
  type ClientRecord,
  type SamlClientRecord,
  type OidcClientRecord,
  type ProtocolMapper,
} from './model.js';

export interface NewUser {
  /** A fixed id (as a realm import may give); a fresh UUID otherwise. */
  id?: string;
  username: string;
  password?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
  realmRoles?: string[];
  /** Group names or ids. */
  groups?: string[];
  attributes?: Record<string, string[]>;
}

export interface NewSamlClient {
  clientId: string;
  urlName: string;
  acsUrls: string[];
  name?: string;
  description?: string;
  baseUrl?: string;
  enabled?: boolean;
  fullScopeAllowed?: boolean;
  scopeRealmRoles?: string[];
  signResponse?: boolean;
  signAssertion?: boolean;
  assertionLifespan?: number;
  defaultRelayState?: string;
  nameIdFormat?: string;
  protocolMappers?: Omit<ProtocolMapper, 'id'>[];
}

export interface NewOidcClient {
  clientId: string;
  name?: string;
  description?: string;
  enabled?: boolean;
  publicClient?: boolean;
  secret?: string;
  directAccessGrantsEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  standardFlowEnabled?: boolean;
  redirectUris?: string[];
  pkceCodeChallengeMethod?: 'S256' | 'plain' | '';
  fullScopeAllowed?: boolean;
  scopeRealmRoles?: string[];
  baseUrl?: string;
  protocolMappers?: Omit<ProtocolMapper, 'id'>[];
}

const URL_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const REALM_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export class RealmStore {
  private realms = new Map<string, RealmRecord>();
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly defaultCloudDomain: string,
  ) {}

  static open(dataDir: string, clock: Clock, log: Logger, defaultCloudDomain = DEFAULT_CLOUD_DOMAIN): RealmStore {
    const store = new RealmStore(path.join(dataDir, 'realms.json'), clock, log, defaultCloudDomain);
    const read = readJsonOrBackup<RealmRecord[]>(store.file, (raw) => {
      if (!Array.isArray(raw)) throw new Error('realms.json is not a list of realms');
      return raw as RealmRecord[];
    });
    if (read.kind === 'corrupt') log.error('realms.json could not be read; kept aside', { backup: read.backup, error: read.error });
    if (read.kind === 'ok') for (const r of read.value) store.realms.set(r.realm, r);
    return store;
  }

  get isEmpty(): boolean {
    return this.realms.size === 0;
  }

  /** Waits for every pending write. */
  flush(): Promise<void> {
    return this.saving;
  }

  private save(): Promise<void> {
    const snapshot = [...this.realms.values()];
    this.saving = this.saving.then(() => writeJsonAtomic(this.file, snapshot, { mode: 0o600 }));
    return this.saving;
  }

  // ---- realms -------------------------------------------------------------------------------

  listRealms(): RealmRecord[] {
    return [...this.realms.values()];
  }

  realm(name: string): RealmRecord {
    const r = this.realms.get(name);
    if (!r) throw new IdpError(404, 'Realm does not exist', 'Realm does not exist');
    return r;
  }

  hasRealm(name: string): boolean {
    return this.realms.has(name);
  }

  async createRealm(input: { realm: string; displayName?: string; enabled?: boolean; cloudDomain?: string } & Partial<typeof REALM_DEFAULTS>): Promise<RealmRecord> {
    if (!input.realm || !REALM_NAME.test(input.realm)) throw new IdpError(400, 'invalid_request', 'Realm name may contain letters, digits, "_", "-" and "."');
    if (this.realms.has(input.realm)) throw new IdpError(409, 'conflict', `Conflict detected. Realm ${input.realm} already exists`);
    const realm: RealmRecord = {
      id: input.realm === 'master' ? 'master' : uuid(),
      realm: input.realm,
      ...(input.displayName ? { displayName: input.displayName } : {}),
      enabled: input.enabled ?? true,
      accessTokenLifespan: input.accessTokenLifespan ?? REALM_DEFAULTS.accessTokenLifespan,
      accessCodeLifespan: input.accessCodeLifespan ?? REALM_DEFAULTS.accessCodeLifespan,
      ssoSessionIdleTimeout: input.ssoSessionIdleTimeout ?? REALM_DEFAULTS.ssoSessionIdleTimeout,
      ssoSessionMaxLifespan: input.ssoSessionMaxLifespan ?? REALM_DEFAULTS.ssoSessionMaxLifespan,
      cloudDomain: (input.cloudDomain ?? this.defaultCloudDomain).replace(/\/+$/, ''),
      users: [],
      groups: [],
      roles: [],
      clients: [],
    };
    this.realms.set(realm.realm, realm);
    await this.save();
    return realm;
  }

  async updateRealm(name: string, patch: Partial<Pick<RealmRecord, 'displayName' | 'enabled' | 'accessTokenLifespan' | 'accessCodeLifespan' | 'ssoSessionIdleTimeout' | 'ssoSessionMaxLifespan' | 'cloudDomain'>>): Promise<RealmRecord> {
    const r = this.realm(name);
    for (const key of ['accessTokenLifespan', 'accessCodeLifespan', 'ssoSessionIdleTimeout', 'ssoSessionMaxLifespan'] as const) {
      const v = patch[key];
      if (v !== undefined && (!Number.isInteger(v) || v <= 0)) throw new IdpError(400, 'invalid_request', `${key} must be a positive whole number of seconds`);
    }
    Object.assign(r, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
    await this.save();
    return r;
  }

  async deleteRealm(name: string): Promise<void> {
    this.realm(name);
    if (name === 'master') throw new IdpError(400, 'invalid_request', 'The master realm cannot be deleted');
    this.realms.delete(name);
    await this.save();
  }

  // ---- roles and groups ---------------------------------------------------------------------

  async createRole(realmName: string, input: { name: string; description?: string }): Promise<RoleRecord> {
    const r = this.realm(realmName);
    if (!input.name || typeof input.name !== 'string') throw new IdpError(400, 'invalid_request', 'Role name is required');
    if (r.roles.some((x) => x.name === input.name)) throw new IdpError(409, 'conflict', `Role with name ${input.name} already exists`);
    const role: RoleRecord = { id: uuid(), name: input.name, ...(input.description ? { description: input.description } : {}) };
    r.roles.push(role);
    await this.save();
    return role;
  }

  async deleteRole(realmName: string, name: string): Promise<void> {
    const r = this.realm(realmName);
    this.role(r, name);
    r.roles = r.roles.filter((x) => x.name !== name);
    for (const u of r.users) u.realmRoles = u.realmRoles.filter((x) => x !== name);
    for (const g of r.groups) g.realmRoles = g.realmRoles.filter((x) => x !== name);
    for (const c of r.clients) c.scopeRealmRoles = c.scopeRealmRoles.filter((x) => x !== name);
    await this.save();
  }

  role(r: RealmRecord, name: string): RoleRecord {
    const role = r.roles.find((x) => x.name === name || x.id === name);
    if (!role) throw new IdpError(404, 'not_found', 'Could not find role');
    return role;
  }

  async createGroup(realmName: string, input: { name: string; realmRoles?: string[] }): Promise<GroupRecord> {
    const r = this.realm(realmName);
    if (!input.name) throw new IdpError(400, 'invalid_request', 'Group name is missing');
    if (r.groups.some((g) => g.name === input.name)) throw new IdpError(409, 'conflict', `Top level group named '${input.name}' already exists.`);
    const roles = (input.realmRoles ?? []).map((n) => this.role(r, n).name);
    const group: GroupRecord = { id: uuid(), name: input.name, path: `/${input.name}`, realmRoles: roles };
    r.groups.push(group);
    await this.save();
    return group;
  }

  group(r: RealmRecord, idOrName: string): GroupRecord {
    const g = r.groups.find((x) => x.id === idOrName || x.name === idOrName || x.path === idOrName);
    if (!g) throw new IdpError(404, 'not_found', 'Could not find group by id');
    return g;
  }

  async deleteGroup(realmName: string, id: string): Promise<void> {
    const r = this.realm(realmName);
    const g = this.group(r, id);
    r.groups = r.groups.filter((x) => x.id !== g.id);
    for (const u of r.users) u.groups = u.groups.filter((x) => x !== g.id);
    await this.save();
  }

  async mapGroupRoles(realmName: string, groupId: string, roles: string[], add: boolean): Promise<GroupRecord> {
    const r = this.realm(realmName);
    const g = this.group(r, groupId);
    const names = roles.map((n) => this.role(r, n).name);
    g.realmRoles = add ? [...new Set([...g.realmRoles, ...names])] : g.realmRoles.filter((x) => !names.includes(x));
    await this.save();
    return g;
  }

  // ---- users ----------------------------------------------------------------------------------

  async createUser(realmName: string, input: NewUser): Promise<UserRecord> {
    const r = this.realm(realmName);
    if (!input.username || typeof input.username !== 'string') throw new IdpError(400, 'invalid_request', 'error-user-attribute-required');
    // Keycloak stores user names in lower case.
    const username = input.username.toLowerCase();
    if (r.users.some((u) => u.username === username)) throw new IdpError(409, 'conflict', 'User exists with same username');
    if (input.id !== undefined && (!/^[0-9a-f-]{36}$/.test(input.id) || r.users.some((u) => u.id === input.id))) throw new IdpError(409, 'conflict', 'User exists with same id');
    const user: UserRecord = {
      id: input.id ?? uuid(),
      username,
      enabled: input.enabled ?? true,
      ...(input.email ? { email: input.email } : {}),
      ...(input.firstName ? { firstName: input.firstName } : {}),
      ...(input.lastName ? { lastName: input.lastName } : {}),
      createdTimestamp: this.clock.now(),
      realmRoles: (input.realmRoles ?? []).map((n) => this.role(r, n).name),
      groups: (input.groups ?? []).map((g) => this.group(r, g).id),
      attributes: input.attributes ?? {},
      credentials: [],
    };
    if (input.password !== undefined) user.credentials = [{ type: 'password', hash: await hashPassword(input.password), createdDate: this.clock.now() }];
    r.users.push(user);
    await this.save();
    return user;
  }

  user(r: RealmRecord, idOrName: string): UserRecord {
    const u = r.users.find((x) => x.id === idOrName || x.username === idOrName.toLowerCase());
    if (!u) throw new IdpError(404, 'not_found', 'User not found');
    return u;
  }

  async updateUser(realmName: string, id: string, patch: Partial<Pick<UserRecord, 'email' | 'firstName' | 'lastName' | 'enabled' | 'attributes'>>): Promise<UserRecord> {
    const u = this.user(this.realm(realmName), id);
    for (const k of ['email', 'firstName', 'lastName', 'enabled', 'attributes'] as const) if (patch[k] !== undefined) (u as unknown as Record<string, unknown>)[k] = patch[k];
    await this.save();
    return u;
  }

  async setPassword(realmName: string, id: string, password: string): Promise<void> {
    if (typeof password !== 'string' || password.length === 0) throw new IdpError(400, 'invalid_request', 'Password is required');
    const u = this.user(this.realm(realmName), id);
    u.credentials = [{ type: 'password', hash: await hashPassword(password), createdDate: this.clock.now() }];
    await this.save();
  }

  async deleteUser(realmName: string, id: string): Promise<void> {
    const r = this.realm(realmName);
    const u = this.user(r, id);
    r.users = r.users.filter((x) => x.id !== u.id);
    await this.save();
  }

  async mapUserRoles(realmName: string, userId: string, roles: string[], add: boolean): Promise<UserRecord> {
    const r = this.realm(realmName);
    const u = this.user(r, userId);
    const names = roles.map((n) => this.role(r, n).name);
    u.realmRoles = add ? [...new Set([...u.realmRoles, ...names])] : u.realmRoles.filter((x) => !names.includes(x));
    await this.save();
    return u;
  }

  async setUserGroup(realmName: string, userId: string, groupId: string, member: boolean): Promise<UserRecord> {
    const r = this.realm(realmName);
    const u = this.user(r, userId);
    const g = this.group(r, groupId);
    u.groups = member ? [...new Set([...u.groups, g.id])] : u.groups.filter((x) => x !== g.id);
    await this.save();
    return u;
  }

  /**
   * Checks a user's password. Unknown users and wrong passwords both answer 'invalid' after the
   * same amount of work, as Keycloak does not tell them apart; a disabled account is reported
   * only to someone who knows its password.
   */
  async authenticate(realmName: string, username: string, password: string): Promise<UserRecord | 'invalid' | 'disabled'> {
    const r = this.realm(realmName);
    const u = r.users.find((x) => x.username === username.toLowerCase() || (x.email !== undefined && x.email.toLowerCase() === username.toLowerCase()));
    const cred = u?.credentials.find((c) => c.type === 'password');
    if (!u || !cred) {
      await burnPasswordCheck(password);
      return 'invalid';
    }
    if (!(await verifyPassword(password, cred.hash))) return 'invalid';
    return u.enabled ? u : 'disabled';
  }

  /** The user's realm roles (direct and through groups), cut to the client's scope unless Full Scope Allowed. */
  effectiveRoles(r: RealmRecord, u: UserRecord, client?: ClientRecord): string[] {
    const all = new Set(u.realmRoles);
    for (const gid of u.groups) for (const role of r.groups.find((g) => g.id === gid)?.realmRoles ?? []) all.add(role);
    const known = new Set(r.roles.map((x) => x.name));
    let names = [...all].filter((n) => known.has(n));
    if (client && !client.fullScopeAllowed) names = names.filter((n) => client.scopeRealmRoles.includes(n));
    return names.sort();
  }

  // ---- clients --------------------------------------------------------------------------------

  client(r: RealmRecord, idOrClientId: string): ClientRecord {
    const c = r.clients.find((x) => x.id === idOrClientId) ?? r.clients.find((x) => x.clientId === idOrClientId);
    if (!c) throw new IdpError(404, 'not_found', 'Could not find client');
    return c;
  }

  samlClientByUrlName(r: RealmRecord, urlName: string): SamlClientRecord | undefined {
    return r.clients.find((c): c is SamlClientRecord => c.protocol === 'saml' && c.urlName === urlName);
  }

  oidcClient(r: RealmRecord, clientId: string): OidcClientRecord | undefined {
    return r.clients.find((c): c is OidcClientRecord => c.protocol === 'openid-connect' && c.clientId === clientId);
  }

  async createSamlClient(realmName: string, input: NewSamlClient): Promise<SamlClientRecord> {
    const r = this.realm(realmName);
    if (!input.clientId) throw new IdpError(400, 'invalid_request', 'Client ID (the SP entity ID) is required');
    if (!input.urlName || !URL_NAME.test(input.urlName)) throw new IdpError(400, 'invalid_request', 'IDP-Initiated SSO URL name may contain letters, digits, "_", "-" and "."');
    if (this.samlClientByUrlName(r, input.urlName)) throw new IdpError(409, 'conflict', `Client with IDP-Initiated SSO URL name ${input.urlName} already exists`);
    if (!Array.isArray(input.acsUrls) || input.acsUrls.length === 0) throw new IdpError(400, 'invalid_request', 'At least one assertion consumer service URL is required');
    for (const u of input.acsUrls) assertHttpUrl(u, 'Assertion consumer service URL');
    for (const m of input.protocolMappers ?? []) {
      if (!(MAPPER_TYPES as readonly string[]).includes(m.protocolMapper)) throw new IdpError(400, 'invalid_request', `Unknown SAML protocol mapper type ${m.protocolMapper}; this IdP evaluates ${MAPPER_TYPES.join(', ')}`);
    }
    const client: SamlClientRecord = {
      id: uuid(),
      protocol: 'saml',
      clientId: input.clientId,
      ...(input.name ? { name: input.name } : {}),
      ...(input.description ? { description: input.description } : {}),
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
      enabled: input.enabled ?? true,
      fullScopeAllowed: input.fullScopeAllowed ?? false,
      scopeRealmRoles: (input.scopeRealmRoles ?? []).map((n) => this.role(r, n).name),
      protocolMappers: (input.protocolMappers ?? []).map((m) => ({ ...m, id: uuid() })),
      urlName: input.urlName,
      acsUrls: [...input.acsUrls],
      signResponse: input.signResponse ?? true,
      signAssertion: input.signAssertion ?? false,
      ...(input.assertionLifespan !== undefined ? { assertionLifespan: positiveSeconds(input.assertionLifespan, 'assertionLifespan') } : {}),
      ...(input.defaultRelayState ? { defaultRelayState: input.defaultRelayState } : {}),
      nameIdFormat: input.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    };
    r.clients.push(client);
    await this.save();
    return client;
  }

  async createOidcClient(realmName: string, input: NewOidcClient): Promise<OidcClientRecord> {
    const r = this.realm(realmName);
    if (!input.clientId) throw new IdpError(400, 'invalid_request', 'Client ID is required');
    if (this.oidcClient(r, input.clientId)) throw new IdpError(409, 'conflict', `Client ${input.clientId} already exists`);
    const publicClient = input.publicClient ?? false;
    const client: OidcClientRecord = {
      id: uuid(),
      protocol: 'openid-connect',
      clientId: input.clientId,
      ...(input.name ? { name: input.name } : {}),
      ...(input.description ? { description: input.description } : {}),
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
      enabled: input.enabled ?? true,
      fullScopeAllowed: input.fullScopeAllowed ?? true,
      scopeRealmRoles: (input.scopeRealmRoles ?? []).map((n) => this.role(r, n).name),
      protocolMappers: (input.protocolMappers ?? []).map((m) => ({ ...m, id: uuid() })),
      publicClient,
      ...(publicClient ? {} : { secret: input.secret ?? randomToken(24) }),
      directAccessGrantsEnabled: input.directAccessGrantsEnabled ?? false,
      serviceAccountsEnabled: input.serviceAccountsEnabled ?? false,
      standardFlowEnabled: input.standardFlowEnabled ?? true,
      redirectUris: input.redirectUris ?? [],
      ...(input.pkceCodeChallengeMethod !== undefined ? { pkceCodeChallengeMethod: pkceMethod(input.pkceCodeChallengeMethod) } : {}),
    };
    r.clients.push(client);
    await this.save();
    return client;
  }

  async updateClient(realmName: string, id: string, patch: Partial<NewSamlClient & NewOidcClient>): Promise<ClientRecord> {
    const r = this.realm(realmName);
    const c = this.client(r, id);
    const common = ['name', 'description', 'baseUrl', 'enabled', 'fullScopeAllowed'] as const;
    const saml = ['acsUrls', 'signResponse', 'signAssertion', 'assertionLifespan', 'defaultRelayState', 'nameIdFormat', 'urlName'] as const;
    const oidc = ['publicClient', 'secret', 'directAccessGrantsEnabled', 'serviceAccountsEnabled', 'standardFlowEnabled', 'redirectUris', 'pkceCodeChallengeMethod'] as const;
    const allowed: readonly string[] = [...common, ...(c.protocol === 'saml' ? saml : oidc)];
    if (patch.urlName !== undefined && c.protocol === 'saml') {
      if (!URL_NAME.test(patch.urlName)) throw new IdpError(400, 'invalid_request', 'IDP-Initiated SSO URL name may contain letters, digits, "_", "-" and "."');
      const other = this.samlClientByUrlName(r, patch.urlName);
      if (other && other.id !== c.id) throw new IdpError(409, 'conflict', `Client with IDP-Initiated SSO URL name ${patch.urlName} already exists`);
    }
    if (patch.acsUrls !== undefined) for (const u of patch.acsUrls) assertHttpUrl(u, 'Assertion consumer service URL');
    if (patch.assertionLifespan !== undefined) positiveSeconds(patch.assertionLifespan, 'assertionLifespan');
    if (patch.pkceCodeChallengeMethod !== undefined) pkceMethod(patch.pkceCodeChallengeMethod);
    for (const [k, v] of Object.entries(patch)) if (allowed.includes(k) && v !== undefined) (c as unknown as Record<string, unknown>)[k] = v;
    if (patch.scopeRealmRoles !== undefined) c.scopeRealmRoles = patch.scopeRealmRoles.map((n) => this.role(r, n).name);
    await this.save();
    return c;
  }

  async deleteClient(realmName: string, id: string): Promise<void> {
    const r = this.realm(realmName);
    const c = this.client(r, id);
    r.clients = r.clients.filter((x) => x.id !== c.id);
    await this.save();
  }

  async regenerateSecret(realmName: string, id: string): Promise<string> {
    const c = this.client(this.realm(realmName), id);
    if (c.protocol !== 'openid-connect' || c.publicClient) throw new IdpError(400, 'invalid_request', 'Only confidential OpenID Connect clients have a secret');
    c.secret = randomToken(24);
    await this.save();
    return c.secret;
  }

  async mapClientScopeRoles(realmName: string, id: string, roles: string[], add: boolean): Promise<ClientRecord> {
    const r = this.realm(realmName);
    const c = this.client(r, id);
    const names = roles.map((n) => this.role(r, n).name);
    c.scopeRealmRoles = add ? [...new Set([...c.scopeRealmRoles, ...names])] : c.scopeRealmRoles.filter((x) => !names.includes(x));
    await this.save();
    return c;
  }

  async addMapper(realmName: string, clientId: string, mapper: Omit<ProtocolMapper, 'id'>): Promise<ProtocolMapper> {
    const r = this.realm(realmName);
    const c = this.client(r, clientId);
    if (!mapper.name || !mapper.protocolMapper) throw new IdpError(400, 'invalid_request', 'A protocol mapper needs a name and a protocolMapper type');
    if (c.protocol === 'saml' && !(MAPPER_TYPES as readonly string[]).includes(mapper.protocolMapper)) {
      throw new IdpError(400, 'invalid_request', `Unknown SAML protocol mapper type ${mapper.protocolMapper}; this IdP evaluates ${MAPPER_TYPES.join(', ')}`);
    }
    if (c.protocolMappers.some((m) => m.name === mapper.name)) throw new IdpError(409, 'conflict', `Protocol mapper exists with same name`);
    const m: ProtocolMapper = { id: uuid(), name: mapper.name, protocol: mapper.protocol ?? c.protocol, protocolMapper: mapper.protocolMapper, config: { ...(mapper.config ?? {}) } };
    c.protocolMappers.push(m);
    await this.save();
    return m;
  }

  async removeMapper(realmName: string, clientId: string, mapperId: string): Promise<void> {
    const c = this.client(this.realm(realmName), clientId);
    if (!c.protocolMappers.some((m) => m.id === mapperId)) throw new IdpError(404, 'not_found', 'Model not found');
    c.protocolMappers = c.protocolMappers.filter((m) => m.id !== mapperId);
    await this.save();
  }
}

function assertHttpUrl(value: string, what: string): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new IdpError(400, 'invalid_request', `${what} is not a URL: ${value}`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new IdpError(400, 'invalid_request', `${what} must be http or https: ${value}`);
}

function pkceMethod(v: string): 'S256' | 'plain' | '' {
  if (v !== 'S256' && v !== 'plain' && v !== '') throw new IdpError(400, 'invalid_request', 'pkce.code.challenge.method must be S256, plain or empty');
  return v;
}

function positiveSeconds(v: number, name: string): number {
  if (!Number.isInteger(v) || v <= 0) throw new IdpError(400, 'invalid_request', `${name} must be a positive whole number of seconds`);
  return v;
}
