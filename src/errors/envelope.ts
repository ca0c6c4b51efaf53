import type { ErrorCode } from './catalogue';

export interface ErrorEnvelope {
  detail: { error: { code: ErrorCode; message: string; hint?: string; sqlstate?: string } };
}

/** The envelope; `sqlstate` (Postgres' five-character code) only for errors raised by a Postgres rule. */
export function errorEnvelope(code: ErrorCode, message: string, hint?: string, sqlstate?: string): ErrorEnvelope {
  const error = hint === undefined ? { code, message } : { code, message, hint };
  return { detail: { error: sqlstate === undefined ? error : { ...error, sqlstate } } };
}
