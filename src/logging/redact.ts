// Secrets must never reach a log line: values under sensitive keys are dropped, and strings that
// look like credentials (API keys, JWTs, URL passwords) are masked wherever they appear.
const sensitiveKey = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|^key$|credential|signature|session_code/i;
/**
 * A `code` is an error code (`UNDEFINED_COLUMN`, `ECONNREFUSED`, an SQLSTATE such as `22012`, a status
 * number) far more often than a secret, and operators need to read those. Only a value shaped like
 * one is kept: an OAuth authorization code or a session code (random, mixed case, long) is masked.
 */
const codeKey = /^code$/i;
const errorCodeShape = /^(?=.{2,64}$)[A-Z0-9]+(?:_[A-Z0-9]+)*$/;
const credentialPatterns: [RegExp, string][] = [
  [/oxb_[A-Za-z0-9]{20,}/g, 'oxb_[redacted]'],
  // Stripe's secret and restricted keys and webhook signing secrets (a provider error may quote one).
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]{8,}/g, '$1_$2_[redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, 'whsec_[redacted]'],
  [/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, '[redacted-jwt]'],
  [/(\/\/[^:/@\s]+:)[^@/\s]+@/g, '$1[redacted]@'],
  [/([?&](?:token|code|key|state)=)[^&\s]+/gi, '$1[redacted]'],
  // A public chart's or page's link: its path is the token (an access log line has the path).
  [/(\/[cp]\/)[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, '$1[redacted]'],
];

/** What each pattern above needs to match: most strings of a log line (ids, paths, times) have none of it and are kept as they are with one test. */
const mayHoldCredential = /oxb_|_(?:live|test)_|whsec_|eyJ|@|[?&](?:token|code|key|state)=|\/[cp]\//i;

export function redactString(text: string): string {
  if (!mayHoldCredential.test(text)) return text;
  return credentialPatterns.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), text);
}

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) return { name: value.name, message: redactString(value.message), stack: value.stack && redactString(value.stack) };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = sensitiveKey.test(key) || (codeKey.test(key) && !isErrorCode(item)) ? '[redacted]' : redact(item, depth + 1);
  }
  return out;
}

function isErrorCode(value: unknown): boolean {
  if (typeof value === 'number') return true;
  return typeof value === 'string' && errorCodeShape.test(value) && (value.includes('_') || value.length <= 16);
}
