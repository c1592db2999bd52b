// The sign-in pages are HTML the server writes with hono/html: whatever a person typed or a link
// carries (a name, an e-mail, the return path, an error) must arrive as text, never as markup.
import { describe, expect, it } from 'vitest';
import { accountPage, LOGIN_CSS, loginPage, messagePage } from './auth-page';

const HOSTILE = `<script>alert("x")</script>' onfocus='alert(1)`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onfocus=&#39;alert(1)';

describe('the sign-in pages', () => {
  it('show a typed e-mail, a return path and an error as text, in content and in attributes', async () => {
    const page = String(
      await loginPage({ next: HOSTILE, error: HOSTILE, email: HOSTILE, local: true, shared: true }),
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain(`'alert(1)`);
    expect(page).toContain(`<p class="error" id="login-error" role="alert">${ESCAPED}</p>`);
    expect(page).toContain(`<input type="hidden" name="next" value="${ESCAPED}">`);
    expect(page).toContain(`maxlength="254" value="${ESCAPED}">`);
    // The page's own markup stays markup: the two forms with "or" between them.
    expect(page).toContain(
      '</form>\n<p class="or">or</p>\n<form method="post" action="/login" class="stack">',
    );
  });

  it("show an invitation's name, e-mail and texts as text", async () => {
    const page = String(
      await accountPage({
        title: HOSTILE,
        intro: HOSTILE,
        action: '/invite/a"b',
        name: HOSTILE,
        email: HOSTILE,
      }),
    );
    expect(page).not.toContain('<script>');
    expect(page).toContain(`<title>${ESCAPED} · Media Console</title>`);
    expect(page).toContain(`<h2>${ESCAPED}</h2>`);
    expect(page).toContain('action="/invite/a&quot;b"');
    expect(page).toContain(`autocomplete="name" required maxlength="80" value="${ESCAPED}">`);
  });

  it('show a message as text, marked as an alert only when asked', async () => {
    const alert = String(await messagePage('Sign-in failed', HOSTILE, 'alert'));
    expect(alert).toContain(`<p class="error" role="alert">${ESCAPED}</p>`);
    expect(String(await messagePage('Link not valid', 'Ask an admin'))).toContain(
      '<p class="hint">Ask an admin</p>',
    );
  });
});

describe('which ways in the sign-in page offers', () => {
  const render = async (options: Parameters<typeof loginPage>[0]) => String(await loginPage(options));
  const PRIVATE = '<p class="hint">This console is private. Sign in to continue.</p>';

  it('offers single sign-on alone as one button carrying the way back, with no "or"', async () => {
    const page = await render({ next: '/tasks?a=1&b=2', sso: true });
    expect(page).toContain(
      '<a class="button" href="/auth/start?next=%2Ftasks%3Fa%3D1%26b%3D2">Sign in with single sign-on</a>',
    );
    expect(page).toContain(PRIVATE);
    expect(page).not.toContain('<form');
    expect(page).not.toContain('class="or"');
    expect(page).not.toContain('role="alert"');
    // Nothing stands where an error would.
    expect(page).toContain('Sign in to continue.</p>\n\n<a class="button"');
  });

  it('puts "or" between each two ways in, in the order single sign-on, account, team password', async () => {
    const page = await render({ next: '/', sso: true, local: true, shared: true });
    expect(page.split('<p class="or">or</p>')).toHaveLength(3);
    const order = [
      'Sign in with single sign-on',
      'name="method" value="local"',
      'name="method" value="shared"',
    ];
    const at = order.map((text) => page.indexOf(text));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('focuses the team password only when it is the only form, and marks the passwords invalid only after an error', async () => {
    const alone = await render({ next: '/', shared: true });
    expect(alone).toContain('autocomplete="current-password" required autofocus>');
    expect(alone).toContain('<label for="shared-password">Team password</label>');
    expect(alone).toContain('<button type="submit">Sign in with the team password</button>');
    expect(alone).not.toContain('aria-invalid');
    const both = await render({ next: '/', local: true, shared: true, error: 'Wrong' });
    expect(both).not.toContain('autofocus');
    expect(both.match(/required aria-describedby="login-error" aria-invalid="true">/g)).toHaveLength(2);
    expect(both).toContain('<p class="error" id="login-error" role="alert">Wrong</p>');
  });

  it('says so when no way in is set up, and shows a notice instead of the intro when given', async () => {
    expect(await render({ next: '/' })).toContain(
      '<p class="hint">No way to sign in is set up yet: ask whoever runs this console.</p>',
    );
    const notice = await render({ next: '/', shared: true, notice: 'Signed out.' });
    expect(notice).toContain('<p class="hint">Signed out.</p>');
    expect(notice).not.toContain(PRIVATE);
  });

  it('is a whole page: language, title, the stylesheet and the heading', async () => {
    const page = await render({ next: '/', local: true });
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page).toContain('<title>Sign in · Media Console</title>');
    expect(page).toContain('<link rel="stylesheet" href="/login.css">');
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).toContain('<h1><img src="/favicon.svg" alt="" width="28" height="28"> Media Console</h1>');
    expect(page).toContain('<input type="hidden" name="method" value="local">');
    expect(page).toContain('autocomplete="username" required maxlength="254" value="">');
  });

  it("locks an invitation's fixed e-mail, and shows its error and the password's rule", async () => {
    const fixed = String(
      await accountPage({
        title: 'Join',
        intro: 'Hi',
        action: '/invite/t',
        email: 'a@b.c',
        emailFixed: true,
        error: 'No',
      }),
    );
    expect(fixed).toContain('value="a@b.c" readonly>');
    expect(fixed).toContain('<p class="error" id="login-error" role="alert">No</p>');
    expect(fixed).toContain('minlength="12" aria-describedby="password-hint">');
    expect(fixed).toContain('<p class="hint" id="password-hint">At least 12 characters.</p>');
    const open = String(await accountPage({ title: 'Join', intro: 'Hi', action: '/invite/t' }));
    expect(open).toContain('maxlength="254" value="">');
    expect(open).toContain('maxlength="80" value="">');
    expect(open).not.toContain('readonly');
    expect(open).not.toContain('role="alert"');
  });

  it('ships a stylesheet with the light and the dark palette', () => {
    expect(LOGIN_CSS.startsWith('*{box-sizing:border-box}')).toBe(true);
    expect(LOGIN_CSS).toContain('@media (prefers-color-scheme:dark){');
    expect(LOGIN_CSS).toContain('input[aria-invalid=true]{border-color:#dc2626}');
  });
});
