/**
 * Login CSRF: a login form is bound to the browser that loaded it, as Keycloak binds it (the
 * AUTH_SESSION_ID cookie names the browser's root authentication session; tab_id, execution
 * and a session_code that changes with every form name the tab). A form posted from another
 * site or browser logs nobody in and shows Keycloak's page.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startHarness, removeDir, postForm, loginFormAction, authSessionCookieOf, parseAutoPost, type Harness } from '../testing/harness.js';

let h: Harness;
let realm: string;

beforeAll(async () => {
  h = await startHarness();
  realm = `${h.idp.url}/realms/federation`;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

const loggedIn = (res: Response) => res.headers.getSetCookie().some((c) => c.startsWith('KEYCLOAK_IDENTITY='));

async function loginPage(url = `${realm}/protocol/saml/clients/cloud`) {
  const res = await fetch(url);
  const html = await res.text();
  return { action: loginFormAction(html), cookie: authSessionCookieOf(res) };
}

describe('the login form is tied to the browser that loaded it', () => {
  it("a cross-site POST without the browser's AUTH_SESSION_ID shows \"Cookie not found\" and logs nobody in", async () => {
    const attacker = await loginPage();
    const res = await postForm(attacker.action, { username: 'alice', password: 'alice' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Cookie not found. Please make sure cookies are enabled in your browser.');
    expect(html).not.toContain('SAMLResponse');
    expect(loggedIn(res)).toBe(false);
  });

  it("another browser's form posted with the victim's own cookie is an expired login, not a login", async () => {
    const attacker = await loginPage();
    const victim = await loginPage();
    expect(victim.cookie).not.toBe(attacker.cookie);
    const res = await postForm(attacker.action, { username: 'alice', password: 'alice' }, { cookie: victim.cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Your login attempt timed out. Login will start from the beginning.');
    expect(loggedIn(res)).toBe(false);
    // The same for the OIDC login page.
    const oidc = await loginPage(`${realm}/protocol/openid-connect/auth?${new URLSearchParams({ client_id: 'loupe-web', redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid' })}`);
    const r2 = await postForm(oidc.action, { username: 'alice', password: 'alice' }, { cookie: victim.cookie });
    expect(r2.status).toBe(400);
    expect(r2.headers.get('location')).toBeNull();
    expect(loggedIn(r2)).toBe(false);
  });

  it('a session_code already used for a form is "Action expired" for that tab; the new form works', async () => {
    const page = await loginPage();
    const wrong = await postForm(page.action, { username: 'alice', password: 'nope' }, { cookie: page.cookie });
    const html = await wrong.text();
    expect(html).toContain('Invalid username or password.');
    const next = loginFormAction(html);
    expect(new URL(next).searchParams.get('session_code')).not.toBe(new URL(page.action).searchParams.get('session_code'));
    expect(new URL(next).searchParams.get('tab_id')).toBe(new URL(page.action).searchParams.get('tab_id'));
    const stale = await postForm(page.action, { username: 'alice', password: 'alice' }, { cookie: page.cookie });
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('Action expired. Please continue with login now.');
    expect(loggedIn(stale)).toBe(false);
    // The form shown with that message has the tab's newest code; it works.
    const ok = await postForm(loginFormAction(staleHtml), { username: 'alice', password: 'alice' }, { cookie: page.cookie });
    expect(loggedIn(ok)).toBe(true);
    expect(parseAutoPost(await ok.text()).action).toBe('https://signin.aws.amazon.com/saml');
  });

  it('two tabs of one browser share AUTH_SESSION_ID and each logs in on its own form', async () => {
    const first = await fetch(`${realm}/protocol/saml/clients/cloud`);
    const cookie = authSessionCookieOf(first);
    const second = await fetch(`${realm}/protocol/saml/clients/cloud`, { headers: { cookie } });
    expect(authSessionCookieOf(second)).toBe(cookie);
    const a1 = loginFormAction(await first.text());
    const a2 = loginFormAction(await second.text());
    expect(new URL(a1).searchParams.get('tab_id')).not.toBe(new URL(a2).searchParams.get('tab_id'));
    expect(loggedIn(await postForm(a2, { username: 'bob', password: 'bob' }, { cookie }))).toBe(true);
    expect(loggedIn(await postForm(a1, { username: 'bob', password: 'bob' }, { cookie }))).toBe(true);
  });
});
