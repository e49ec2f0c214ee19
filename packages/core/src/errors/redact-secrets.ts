/**
 * A connection string's credentials in any text: `scheme://user:password@host` keeps the user
 * and hides the password, and a libpq keyword string's `password=...` likewise. The password
 * stops at `@`, `/`, a quote or whitespace, so `http://host:8080/a@b` and JSON around a URL are
 * left alone. Applied to every log line of a worker, to CycliumError messages and to the
 * configuration errors printed at start-up (issue 31: an invalid DATABASE_URL was printed whole).
 */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:@/"']*):([^\s@/"']*)@/gi;
const KEYWORD_PASSWORD = /\b(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s'"]+)/gi;

export const REDACTED = "***";

export function redactSecrets(text: string): string {
  return text.replace(URL_PASSWORD, `$1:${REDACTED}@`).replace(KEYWORD_PASSWORD, `$1${REDACTED}`);
}
