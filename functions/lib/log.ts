// JSON-line logs. Anything that looks like a credential is redacted before it is written.
const SECRET_KEYS = /(token|secret|password|authorization|code|cookie)/i;
const SECRET_NAMES = '(?:private_token|access_token|refresh_token|bearer_token|job_token|id_token|token|client_secret|password|code)';
/** `private_token=...` in query strings and form bodies. */
const SECRET_IN_QUERY = new RegExp(`(\\b${SECRET_NAMES}=)[^&\\s"]+`, 'gi');
/** `"private_token":"..."` inside JSON text. */
const SECRET_IN_JSON = new RegExp(`("${SECRET_NAMES}"\\s*:\\s*")[^"]*`, 'gi');
/** `Authorization: Bearer ...` / `Basic ...` and `PRIVATE-TOKEN: ...` written out as text. */
const SECRET_HEADERS = /\b(Bearer|Basic|PRIVATE-TOKEN:?)\s+[\w.~+/=-]+/gi;
/** Credentials in URLs (`postgres://user:password@host`). */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi;

export function redact(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replace(SECRET_IN_QUERY, '$1[REDACTED]')
      .replace(SECRET_IN_JSON, '$1[REDACTED]')
      .replace(SECRET_HEADERS, '$1 [REDACTED]')
      .replace(URL_CREDENTIALS, '$1[REDACTED]@')
      .replace(/glpat-[\w-]+/g, 'glpat-[REDACTED]');
  }
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[REDACTED]' : redact(v)]));
  }
  return value;
}

export function log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}) {
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...(redact(fields) as object) });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
