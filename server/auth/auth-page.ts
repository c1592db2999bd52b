// The sign-in page: plain server-rendered HTML with a stylesheet served beside it, so it works under
// the same strict Content-Security-Policy as the app (no inline script, no inline style) and
// before any JavaScript has loaded. Written with hono/html: every value put in a template is
// escaped, and a fragment made by `html` is kept as it is, so no text can open a tag or leave an
// attribute.
import { html } from 'hono/html';

export const LOGIN_CSS_PATH = '/login.css';

interface LoginPageOptions {
  next: string;
  error?: string;
  /** Single sign-on (OIDC_ISSUER): a button to the identity provider. */
  sso?: boolean;
  /** Local accounts: e-mail and password. */
  local?: boolean;
  /** APP_PASSWORD: the team's one shared password. */
  shared?: boolean;
  /** What was typed in the e-mail field, kept when the password was wrong. */
  email?: string;
  /** A plain message instead of a form (signed out, nothing configured). */
  notice?: string;
}

type Html = ReturnType<typeof html>;

function page(title: string, body: Html) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} · Media Console</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="${LOGIN_CSS_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const errorBlock = (error?: string) =>
  error ? html`<p class="error" id="login-error" role="alert">${error}</p>` : '';
const or = html`\n<p class="or">or</p>\n`;
const heading = html`<h1><img src="/favicon.svg" alt="" width="28" height="28"> Media Console</h1>`;

export function loginPage({ next, error, sso, local, shared, email = '', notice }: LoginPageOptions) {
  const describedBy = error ? html` aria-describedby="login-error" aria-invalid="true"` : '';
  const parts: Html[] = [];
  if (sso)
    parts.push(
      html`<a class="button" href="/auth/start?next=${encodeURIComponent(next)}">Sign in with single sign-on</a>`,
    );
  if (local)
    parts.push(html`<form method="post" action="/login" class="stack">
<input type="hidden" name="method" value="local">
<input type="hidden" name="next" value="${next}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}>
<button type="submit">Sign in</button>
</form>`);
  if (shared)
    parts.push(html`<form method="post" action="/login" class="stack">
<input type="hidden" name="method" value="shared">
<input type="hidden" name="next" value="${next}">
<label for="shared-password">Team password</label>
<input id="shared-password" name="password" type="password" autocomplete="current-password" required${local ? '' : html` autofocus`}${describedBy}>
<button type="submit">Sign in with the team password</button>
</form>`);
  const intro =
    notice ??
    (parts.length
      ? 'This console is private. Sign in to continue.'
      : 'No way to sign in is set up yet: ask whoever runs this console.');
  return page(
    'Sign in',
    html`<div class="card">
${heading}
<p class="hint">${intro}</p>
${errorBlock(error)}
${parts.flatMap((part, index) => (index ? [or, part] : [part]))}
</div>`,
  );
}

interface AccountPageOptions {
  title: string;
  intro: string;
  action: string;
  error?: string;
  name?: string;
  email?: string;
  /** The invitation fixed the e-mail address. */
  emailFixed?: boolean;
}

/** Making a local account from a one-time link: an invitation, or the first admin's set-up. */
export function accountPage(o: AccountPageOptions) {
  return page(
    o.title,
    html`<form method="post" action="${o.action}" class="card">
${heading}
<h2>${o.title}</h2>
<p class="hint">${o.intro}</p>
${errorBlock(o.error)}
<label for="name">Your name</label>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="80" value="${o.name ?? ''}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${o.email ?? ''}"${o.emailFixed ? html` readonly` : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least 12 characters.</p>
<button type="submit">Create account</button>
</form>`,
  );
}

/** A plain message (a used link, a refused sign-in) with a way back. */
export function messagePage(title: string, message: string, status?: string) {
  return page(
    title,
    html`<div class="card">
${heading}
<h2>${title}</h2>
<p${status === 'alert' ? html` class="error" role="alert"` : html` class="hint"`}>${message}</p>
<a class="button secondary" href="/login">Back to sign-in</a>
</div>`,
  );
}

// Same zinc and indigo palette as the app, light and dark.
export const LOGIN_CSS = `*{box-sizing:border-box}
html{font-family:ui-sans-serif,system-ui,sans-serif;color-scheme:light dark}
body{margin:0;min-height:100dvh;display:grid;place-items:center;background:#fafafa;color:#18181b}
main{width:100%;max-width:24rem;padding:1rem}
.card{display:flex;flex-direction:column;gap:.75rem;padding:1.5rem;border:1px solid #e4e4e7;border-radius:.75rem;background:#fff;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{display:flex;align-items:center;gap:.5rem;margin:0;font-size:1.25rem;letter-spacing:-.01em}
h2{margin:0;font-size:1rem}
.stack{display:flex;flex-direction:column;gap:.75rem}
.or{margin:0;text-align:center;font-size:.875rem;color:#52525b}
.button{display:block;text-align:center;text-decoration:none;font-weight:500;padding:.5rem .75rem;border-radius:.5rem;background:#4338ca;color:#fff}
.button:hover{background:#3730a3}
.button.secondary{background:transparent;color:#4338ca;border:1px solid #d4d4d8}
.hint{margin:0;font-size:.875rem;color:#52525b}
label{font-size:.875rem;font-weight:500}
input[type=password],input[type=text],input[type=email]{font:inherit;padding:.5rem .75rem;border:1px solid #d4d4d8;border-radius:.5rem;background:inherit;color:inherit}
input[aria-invalid=true]{border-color:#dc2626}
button{font:inherit;font-weight:500;padding:.5rem .75rem;border:0;border-radius:.5rem;background:#4338ca;color:#fff;cursor:pointer}
button:hover{background:#3730a3}
:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
.error{margin:0;padding:.5rem .75rem;border-radius:.5rem;font-size:.875rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
@media (prefers-color-scheme:dark){
body{background:#09090b;color:#f4f4f5}
.card{background:#18181b;border-color:#27272a}
.hint{color:#a1a1aa}
input[type=password],input[type=text],input[type=email]{border-color:#3f3f46}
.or{color:#a1a1aa}
.button.secondary{color:#a5b4fc;border-color:#3f3f46}
.error{background:#450a0a;color:#fecaca;border-color:#7f1d1d}
}
`;
