/** One item of a 422 body (the FastAPI shape). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An answer of the service other than success, read from its envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
    options: { cause?: unknown; issues?: ValidationIssue[]; sqlstate?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.issues = options.issues ?? [];
    this.sqlstate = options.sqlstate;
  }

  readonly issues: ValidationIssue[];
  readonly sqlstate: string | undefined;

  /** The message of the issue about one field of a form, by its name in the body. */
  fieldMessage(field: string): string | undefined {
    return this.issues.find((issue) => issue.loc[issue.loc.length - 1] === field)?.msg;
  }

  /** The message of the issue about one place of the body: `['spec', 'host']` is `loc` `['body', 'spec', 'host']`. */
  messageAt(path: (string | number)[]): string | undefined {
    const wanted = ['body', ...path].join('\u0000');
    return this.issues.find((issue) => issue.loc.join('\u0000') === wanted)?.msg;
  }
}

type Envelope = { detail?: { error?: { code?: unknown; message?: unknown; hint?: unknown; sqlstate?: unknown } } | ValidationIssue[] };

export function apiErrorOf(status: number, body: unknown): ApiError {
  const detail = (body as Envelope | undefined)?.detail;
  if (Array.isArray(detail)) {
    const issues = detail.filter((issue): issue is ValidationIssue => typeof issue?.msg === 'string');
    const summary = issues.map((issue) => `${issue.loc.slice(1).join('.') || 'request'}: ${issue.msg}`).join('; ');
    return new ApiError(status, 'VALIDATION_ERROR', summary || 'The request was not valid', undefined, { issues });
  }
  const error = detail?.error;
  if (error && typeof error.code === 'string') {
    return new ApiError(status, error.code, String(error.message ?? error.code), typeof error.hint === 'string' ? error.hint : undefined, {
      sqlstate: typeof error.sqlstate === 'string' ? error.sqlstate : undefined,
    });
  }
  return new ApiError(status, 'HTTP_ERROR', `The service answered ${status}`);
}

/** Any thrown value as a sentence for a person. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
