/** Text for a LIKE pattern, matched as written: `\`, `%` and `_` escaped (PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
