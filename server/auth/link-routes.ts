// Local accounts made from one-time links: an admin's invitation (any role) or the first admin's
// set-up link. The page asks for a name, an e-mail and a password; the link is used once.
import { Hono, type Context } from 'hono';
import { cleanDisplayName } from '../http/display-text';
import { NO_STORE } from '../http/no-store';
import { hashPassword, passwordProblem } from '../identity/passwords';
import { accountPage, messagePage } from './auth-page';
import type { SignInKit } from './sign-in-kit';

type Purpose = 'invite' | 'setup';

function linkPage(
  c: Context,
  token: string,
  purpose: Purpose,
  error?: string,
  values: { name?: string; email?: string } = {},
  status: 200 | 400 = 200,
) {
  return c.html(
    accountPage({
      title: purpose === 'setup' ? 'Set up the first admin' : 'Join the team',
      intro:
        purpose === 'setup'
          ? 'This one-time link makes the first admin account of this console.'
          : 'You were invited to this console. Choose your name and a password.',
      action: `/${purpose}/${token}`,
      error,
      ...values,
    }),
    status,
    NO_STORE,
  );
}

const linkGone = (
  c: Context,
  message = 'This link has expired or was already used. Ask an admin for a new one.',
) => c.html(messagePage('Link not valid', message), 404, NO_STORE);

export function linkRoutes(kit: SignInKit): Hono {
  const { store } = kit;
  const routes = new Hono();
  for (const purpose of ['invite', 'setup'] as const) {
    routes.get(`/${purpose}/:token`, async (c) => {
      const token = c.req.param('token');
      const link = await store.findLink(token, purpose);
      if (!link) return linkGone(c);
      return linkPage(c, token, purpose, undefined, { email: link.email ?? '' });
    });
    routes.post(`/${purpose}/:token`, kit.formLimit, async (c) => {
      const token = c.req.param('token');
      const field = await kit.readForm(c);
      const name = cleanDisplayName(field('name'));
      const email = field('email').trim().toLowerCase().slice(0, 254);
      const password = field('password');
      const link = await store.findLink(token, purpose);
      if (!link) return linkGone(c);
      const problem =
        (!name && 'Enter your name.') ||
        (!/^[^\s@]+@[^\s@]+$/.test(email) && 'Enter an e-mail address.') ||
        (link.email && link.email !== email && `This invitation is for ${link.email}.`) ||
        passwordProblem(password) ||
        ((await store.findLocal(email)) && 'An account with this e-mail already exists: sign in instead.');
      if (problem) return linkPage(c, token, purpose, problem, { name, email }, 400);
      const person = await store.redeemLink(token, purpose, {
        name,
        email,
        passwordHash: await hashPassword(password),
      });
      if (!person) return linkGone(c, 'This link was used a moment ago. Ask an admin for a new one.');
      await store.audit({
        actor: { userId: person.id, name: person.name },
        action: purpose === 'setup' ? 'setup.admin' : 'invite.accept',
        target: person.name,
        detail: { role: person.role, email },
      });
      return kit.signInAs(c, person.id, '/', 'redirect');
    });
  }
  return routes;
}
