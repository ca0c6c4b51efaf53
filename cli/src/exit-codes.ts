/**
 * What the process's exit status says, for scripts (docs/cli.md lists them). Statuses follow the
 * kind of failure, not the HTTP status one by one: a script checks "not logged in" or "bad input",
 * not 409 against 422.
 */
export const exitCodes = {
  ok: 0,
  /** Anything not below: the service failed (5xx), or the client met something it did not expect. */
  failure: 1,
  /** The command line itself: an unknown command or option, a missing argument, an unreadable file. */
  usage: 2,
  /** Not logged in, or the key is invalid, expired or revoked (401). */
  auth: 3,
  /** Logged in, but not allowed: not a member of the workspace, or a role without the permission (403). */
  forbidden: 4,
  /** No such workspace, table, job, connection or transform (404). */
  notFound: 5,
  /** The service refused the input: SQL errors, validation, conflicts, limits (400, 408, 409, 413, 422). */
  rejected: 6,
  /** The service is busy or unreachable: rate limited, unavailable, no connection (429, 503, network). */
  unavailable: 7,
  /** A job, sync or transform run that the command waited for ended failed or cancelled. */
  workFailed: 8,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** A failure the CLI explains itself: its message and hint are printed, its code is the exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
    /** The API's error code, when the failure is the service's answer. */
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401) return exitCodes.auth;
  if (status === 403) return exitCodes.forbidden;
  if (status === 404) return exitCodes.notFound;
  if (status === 429 || status === 503 || status === 502 || status === 504) return exitCodes.unavailable;
  if (status >= 400 && status < 500) return exitCodes.rejected;
  return exitCodes.failure;
}
