// Who may change or remove what a person made (a board, a share link): the person who made it, or an
// admin. Creators may not touch one another's.
import { roleAtLeast } from '../../src/api/roles';
import type { Identity } from './request-identity';

/** Whether `who` is the maker (`madeById`, a user id; null when no one is recorded) or an admin. */
export function isMakerOrAdmin(
  who: Pick<Identity, 'userId' | 'role'> | undefined,
  madeById: string | null,
): boolean {
  const mine = who !== undefined && madeById === who.userId;
  return mine || roleAtLeast(who?.role, 'admin');
}
