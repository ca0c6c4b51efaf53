import type { ErrorCode } from './catalogue';

export interface ErrorEnvelope {
  detail: { error: { code: ErrorCode; message: string; hint?: string } };
}

export function errorEnvelope(code: ErrorCode, message: string, hint?: string): ErrorEnvelope {
  return { detail: { error: hint === undefined ? { code, message } : { code, message, hint } } };
}
