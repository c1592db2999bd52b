// Who "me" is on the team's record: the verified person the server says is signed in
// (/__console/config). The Tasks screen's "Mine" reads it here, so it cannot disagree with what
// the server records.
import { useConsoleInfo } from './console-info';
import type { Role } from './roles';

export interface MyName {
  name: string;
  id?: string;
  role?: Role;
}

export function useMyName(): MyName {
  const { data } = useConsoleInfo();
  return data?.user ? { name: data.user.name, id: data.user.id, role: data.user.role } : { name: '' };
}
