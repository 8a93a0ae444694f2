// JSON-line logs. Anything that looks like a credential is redacted before it is written.
const SECRET_KEYS = /(token|secret|password|authorization|code|cookie)/i;
const SECRET_IN_TEXT = /((?:private_token|access_token|refresh_token|client_secret|password|code)=)[^&\s"]+/gi;

export function redact(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(SECRET_IN_TEXT, '$1[REDACTED]').replace(/glpat-[\w-]+/g, 'glpat-[REDACTED]');
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
