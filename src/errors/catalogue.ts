/**
 * Every error code the service can answer with, and its HTTP status. The spec fixes the execute codes;
 * the others fill the gaps it leaves (ARCHITECTURE §4). Nothing else renders an error status.
 */
export const errorCatalogue = {
  // 400: the request is understood but cannot be carried out
  BAD_REQUEST: 400,
  SYNTAX_ERROR: 400,
  UNDEFINED_TABLE: 400,
  UNDEFINED_COLUMN: 400,
  QUERY_TOO_LARGE: 400,
  QUERY_TOO_COMPLEX: 400,
  RESULT_TOO_LARGE: 400,
  SNAPSHOT_NOT_FOUND: 400,
  NO_WORKSPACE: 400,
  STATEMENT_NOT_ALLOWED: 400,
  QUERY_ERROR: 400,
  /** A value Postgres refuses: division by zero, text that is no value of the type, a value out of the type's range (SQLSTATE class 22). */
  INVALID_VALUE: 400,
  /** No function or operator of that name takes those argument types (SQLSTATE 42883). */
  UNDEFINED_FUNCTION: 400,
  /** Values of two types meet where Postgres cannot match them: a UNION's columns, a CASE's branches (SQLSTATE 42804). */
  DATATYPE_MISMATCH: 400,
  RESOURCE_EXHAUSTED: 400,
  /** A connection's source is the service's own database, bucket or Temporal, or a private address where those are refused. */
  SOURCE_NOT_ALLOWED: 400,
  /** The source could not be reached or refused what was asked of it (discover, preview). */
  SOURCE_ERROR: 400,
  DAG_CYCLE: 400,
  INVALID_SIGNATURE: 400,
  // 401: who is calling is unknown
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  EXPIRED_API_KEY: 401,
  NOT_AUTHENTICATED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  // 403: known caller, not allowed
  EMAIL_NOT_VERIFIED: 403,
  SIGNUP_CLOSED: 403,
  WORKSPACE_ACCESS_DENIED: 403,
  INSUFFICIENT_ROLE: 403,
  /** A console session endpoint called from another site's page. */
  ORIGIN_NOT_ALLOWED: 403,
  STORAGE_LIMIT_REACHED: 403,
  CONNECTOR_LIMIT_REACHED: 403,
  // 404, 405, 408, 409, 413, 429
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  QUERY_TIMEOUT: 408,
  CONFLICT: 409,
  JOB_NOT_PENDING: 409,
  /** Cancelling a job that has already succeeded, failed or been cancelled. */
  JOB_FINISHED: 409,
  SYNC_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  CONCURRENCY_LIMITED: 429,
  // 5xx: our side
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  ENGINE_BUSY: 503,
  BILLING_NOT_CONFIGURED: 503,
  /** A job whose workflow an operator terminated or reset in Temporal, or that timed out there: it is recorded failed with these. */
  JOB_TERMINATED: 503,
  JOB_TIMED_OUT: 503,
  /** A public chart whose query fails now (its owner changed a table, a parameter…); the viewer learns no more. */
  CHART_UNAVAILABLE: 503,
  BILLING_PROVIDER_UNAVAILABLE: 503,
  /** A CRM provider's OAuth client is not configured on this service. */
  PROVIDER_NOT_CONFIGURED: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorCatalogue;

export function statusOf(code: ErrorCode): number {
  return errorCatalogue[code];
}
