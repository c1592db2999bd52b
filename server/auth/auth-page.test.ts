// The sign-in pages are HTML the server writes with hono/html: whatever a person typed or a link
// carries (a name, an e-mail, the return path, an error) must arrive as text, never as markup.
import { describe, expect, it } from 'vitest';
import { accountPage, loginPage, messagePage } from './auth-page';

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
