// The sign-in page: plain server-rendered HTML with a stylesheet served beside it, so it works under
// the same strict Content-Security-Policy as the app (no inline script, no inline style) and
// before any JavaScript has loaded.
import { escapeHtml } from '../http/escape-html';

export const LOGIN_CSS_PATH = '/login.css';

export interface LoginPageOptions {
  next: string;
  error?: string;
  /** What was typed in the name field, kept when the password was wrong. */
  name?: string;
}

export function loginPage({ next, error, name = '' }: LoginPageOptions): string {
  const errorHtml = error ? `<p class="error" id="login-error" role="alert">${escapeHtml(error)}</p>` : '';
  const describedBy = error ? ' aria-describedby="login-error" aria-invalid="true"' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>Sign in · Media Console</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="${LOGIN_CSS_PATH}">
</head>
<body>
<main>
<form method="post" action="/login" class="card">
<h1><img src="/favicon.svg" alt="" width="28" height="28"> Media Console</h1>
<p class="hint">This console is private. Enter the access password to continue.</p>
${errorHtml}
<label for="name">Your name</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="80" value="${escapeHtml(name)}" aria-describedby="name-hint">
<p class="hint" id="name-hint">Shown to the team on the tasks you create.</p>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${describedBy}>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

// Same zinc and indigo palette as the app, light and dark.
export const LOGIN_CSS = `*{box-sizing:border-box}
html{font-family:ui-sans-serif,system-ui,sans-serif;color-scheme:light dark}
body{margin:0;min-height:100dvh;display:grid;place-items:center;background:#fafafa;color:#18181b}
main{width:100%;max-width:24rem;padding:1rem}
.card{display:flex;flex-direction:column;gap:.75rem;padding:1.5rem;border:1px solid #e4e4e7;border-radius:.75rem;background:#fff;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{display:flex;align-items:center;gap:.5rem;margin:0;font-size:1.25rem;letter-spacing:-.01em}
.hint{margin:0;font-size:.875rem;color:#52525b}
label{font-size:.875rem;font-weight:500}
input[type=password],input[type=text]{font:inherit;padding:.5rem .75rem;border:1px solid #d4d4d8;border-radius:.5rem;background:inherit;color:inherit}
input[aria-invalid=true]{border-color:#dc2626}
button{font:inherit;font-weight:500;padding:.5rem .75rem;border:0;border-radius:.5rem;background:#4338ca;color:#fff;cursor:pointer}
button:hover{background:#3730a3}
:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
.error{margin:0;padding:.5rem .75rem;border-radius:.5rem;font-size:.875rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
@media (prefers-color-scheme:dark){
body{background:#09090b;color:#f4f4f5}
.card{background:#18181b;border-color:#27272a}
.hint{color:#a1a1aa}
input[type=password],input[type=text]{border-color:#3f3f46}
.error{background:#450a0a;color:#fecaca;border-color:#7f1d1d}
}
`;
