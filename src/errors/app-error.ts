import { statusOf, type ErrorCode } from './catalogue';

/**
 * What a caller can do about an error, as a code: the domain and the engine do not know the HTTP
 * interface, so the layer that answers (the HTTP API, a run record) says where to do it.
 */
export type Advice = 'run-as-job' | 'list-tables';

export interface AppErrorOptions {
  hint?: string;
  advice?: Advice;
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  headers?: Record<string, string>;
  cause?: unknown;
  /** Postgres' five-character SQLSTATE, for an error raised by a Postgres rule (`22012`: division by zero). */
  sqlstate?: string;
}

/** An expected failure with a code from the catalogue; rendered as the error envelope by the HTTP layer. */
export class AppError extends Error {
  readonly status: number;
  readonly hint: string | undefined;
  readonly advice: Advice | undefined;
  readonly headers: Record<string, string>;
  readonly sqlstate: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = statusOf(code);
    this.hint = options.hint;
    this.advice = options.advice;
    this.headers = options.headers ?? {};
    this.sqlstate = options.sqlstate;
  }
}

/**
 * Whether an error is the tenant's own (its SQL, its input, its plan's limits) rather than the
 * service's: a statement's run records it as its outcome, where the service's own failures are
 * thrown to be retried.
 */
export function isTenantError(error: unknown): error is AppError {
  return error instanceof AppError && error.status < 500;
}

/** One item of a 422 body, in the FastAPI shape clients of this interface already parse. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A 422 raised by domain code for rules a request schema cannot express. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }

  static at(loc: (string | number)[], msg: string, type = 'value_error'): RequestValidationError {
    return new RequestValidationError([{ loc, msg, type }]);
  }
}
