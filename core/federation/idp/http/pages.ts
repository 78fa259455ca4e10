/**
 * The HTML the browser sees: Keycloak-like login page (inputs `username` and `password`, the
 * error text "Invalid username or password."), Keycloak's SAML HTTP-POST auto-submit form, and
 * an error page.
 */
import { escapeXml as h } from '../../saml/xml.js';

export const INVALID_CREDENTIALS = 'Invalid username or password.';
/** Keycloak's cookieNotFoundMessage: the login form came back without the browser's AUTH_SESSION_ID. */
export const COOKIE_NOT_FOUND = 'Cookie not found. Please make sure cookies are enabled in your browser.';
/** Keycloak's loginTimeout: the tab's authentication session is gone. */
export const LOGIN_TIMEOUT = 'Your login attempt timed out. Login will start from the beginning.';
/** Keycloak's expiredActionMessage: an old session_code for a live tab. */
export const EXPIRED_ACTION = 'Action expired. Please continue with login now.';
/** Keycloak's accountDisabledMessage. */
export const ACCOUNT_DISABLED = 'Account is disabled, contact your administrator.';

export interface LoginPageInput {
  realmDisplayName: string;
  action: string;
  username?: string;
  error?: string;
  /** Hidden fields carried through the POST (e.g. RelayState). */
  hidden?: Record<string, string>;
}

export function loginPage(p: LoginPageInput): string {
  const hidden = Object.entries(p.hidden ?? {})
    .map(([k, v]) => `<input type="hidden" name="${h(k)}" value="${h(v)}">`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in to ${h(p.realmDisplayName)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f0f0f0;margin:0}#kc-content{max-width:420px;margin:8vh auto;background:#fff;padding:32px;border-top:4px solid #0066cc;box-shadow:0 1px 4px rgba(0,0,0,.15)}
label{display:block;margin:16px 0 4px}input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:8px;font-size:15px}#kc-login{margin-top:24px;width:100%;padding:10px;background:#0066cc;color:#fff;border:0;font-size:15px;cursor:pointer}
.alert-error{background:#fdeded;color:#8a1c1c;padding:10px;margin-bottom:12px;border-left:3px solid #c9190b}</style></head>
<body id="keycloak-bg"><div id="kc-header"><div id="kc-header-wrapper"></div></div>
<div id="kc-content"><h1 id="kc-page-title">Sign in to your account</h1><p>${h(p.realmDisplayName)}</p>
${p.error ? `<div class="alert-error" role="alert"><span id="input-error" class="kc-feedback-text" aria-live="polite">${h(p.error)}</span></div>` : ''}
<form id="kc-form-login" action="${h(p.action)}" method="post">
<label for="username">Username or email</label><input tabindex="1" id="username" name="username" value="${h(p.username ?? '')}" type="text" autofocus autocomplete="username"${p.error ? ' aria-invalid="true"' : ''}>
<label for="password">Password</label><input tabindex="2" id="password" name="password" type="password" autocomplete="current-password"${p.error ? ' aria-invalid="true"' : ''}>
${hidden}<input tabindex="4" name="login" id="kc-login" type="submit" value="Sign In">
</form></div></body></html>`;
}

/** Keycloak's HTTP-POST binding page (BaseSAML2BindingBuilder), submitted by the browser on load. */
export function autoPostForm(action: string, fields: { SAMLResponse: string; RelayState?: string }): string {
  const relay = fields.RelayState !== undefined ? `<INPUT TYPE="HIDDEN" NAME="RelayState" VALUE="${h(fields.RelayState)}"/>` : '';
  return (
    `<HTML><HEAD><TITLE>SAML HTTP Post Binding</TITLE></HEAD><BODY Onload="document.forms[0].submit()">` +
    `<FORM METHOD="POST" ACTION="${h(action)}"><INPUT TYPE="HIDDEN" NAME="SAMLResponse" VALUE="${h(fields.SAMLResponse)}"/>${relay}` +
    `<NOSCRIPT><P>JavaScript is disabled. We strongly recommend to enable it. Click the button below to continue.</P><INPUT TYPE="SUBMIT" VALUE="CONTINUE" /></NOSCRIPT></FORM></BODY></HTML>`
  );
}

export function errorPage(message: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>We are sorry...</title></head>
<body><div id="kc-content"><h1 id="kc-page-title">We are sorry...</h1><p id="kc-error-message" class="instruction">${h(message)}</p></div></body></html>`;
}

export interface WelcomeRealm {
  realm: string;
  displayName?: string;
  realmUrl: string;
  sso: { urlName: string; name?: string; url: string }[];
}

/** The root page: what this IdP serves, with links a person can click. */
export function welcomePage(realms: WelcomeRealm[]): string {
  const rows = realms
    .map(
      (r) =>
        `<section><h2>${h(r.displayName ?? r.realm)} <small>(${h(r.realm)})</small></h2><ul>` +
        `<li><a href="${h(r.realmUrl)}/.well-known/openid-configuration">OpenID configuration</a></li>` +
        `<li><a href="${h(r.realmUrl)}/protocol/openid-connect/certs">JWKS</a></li>` +
        `<li><a href="${h(r.realmUrl)}/protocol/saml/descriptor">SAML IdP metadata</a></li>` +
        r.sso.map((s) => `<li>SAML sign-in: <a href="${h(s.url)}">${h(s.name ?? s.urlName)}</a></li>`).join('') +
        `</ul></section>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Loupe identity provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:5vh auto;padding:0 16px}small{color:#666}</style></head>
<body><h1>Loupe identity provider</h1><p>Keycloak-compatible endpoints (also under <code>/auth</code>).</p>${rows}</body></html>`;
}

/** OIDC response_mode=form_post (Keycloak's FormPostRedirectUriBuilder): the browser POSTs the fields to the client. */
export function formPostPage(action: string, fields: [string, string][]): string {
  const inputs = fields.map(([k, v]) => `<INPUT TYPE="HIDDEN" NAME="${h(k)}" VALUE="${h(v)}" />`).join('');
  return (
    `<HTML><HEAD><TITLE>Submit This Form</TITLE></HEAD><BODY Onload="javascript:document.forms[0].submit()">` +
    `<FORM METHOD="POST" ACTION="${h(action)}">${inputs}<NOSCRIPT><P>JavaScript is disabled. We strongly recommend to enable it. Click the button below to continue.</P><INPUT TYPE="SUBMIT" VALUE="CONTINUE" /></NOSCRIPT></FORM></BODY></HTML>`
  );
}

/** Keycloak's info page (e.g. "You are logged out"). */
export function infoPage(message: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${h(message)}</title></head>
<body><div id="kc-content"><h1 id="kc-page-title">${h(message)}</h1></div></body></html>`;
}

/** Keycloak's logout confirmation ("Do you want to log out?"), posting back a one-time code. */
export function logoutConfirmPage(action: string, code: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Logging out</title></head>
<body><div id="kc-content"><h1 id="kc-page-title">Logging out</h1><p class="instruction">Do you want to log out?</p>
<form id="kc-logout-confirm" action="${h(action)}" method="POST"><input type="hidden" name="session_code" value="${h(code)}">
<input tabindex="4" name="confirmLogout" id="kc-logout" type="submit" value="Logout"></form></div></body></html>`;
}
