import { AppError } from '../../errors/app-error';
import { duckdbErrorOf, type DuckDBErrorInfo } from '../duckdb/duckdb-error';
import { StatementAbandoned } from '../duckdb/pending-statement';
import { postgresErrorOf, withSqlstate } from './postgres-errors';
import { timeTravelError, type TimeTravelContext } from './time-travel-errors';

export interface ErrorContext {
  sql: string;
  /** Paths that must never appear in a message (the workspace's data and temp folders). */
  privatePaths: string[];
  /** The statement's tables, for an error that says one read as of a time was not there then. */
  timeTravel?: TimeTravelContext;
}

/**
 * The one place where DuckDB's errors become the service's codes, decided by DuckDB's own error type
 * (duckdb-error.ts), each with a useful hint and, where Postgres raises the same fault, its SQLSTATE
 * (postgres-errors.ts). Messages that reach the client are stripped of server paths. Errors of the storage or the engine itself are 503s that a retry can cure; nothing DuckDB
 * says about a query is a 500.
 */
export async function mapDuckDBError(error: unknown, context: ErrorContext): Promise<AppError> {
  if (error instanceof AppError) return error;
  if (error instanceof StatementAbandoned) return queryTimeout();
  const info = duckdbErrorOf(error);
  if (!info) return new AppError('INTERNAL_ERROR', 'The query failed unexpectedly', { cause: error });
  const message = scrub(info.message, context.privatePaths);
  const fullDetail = scrub(info.detail, context.privatePaths);
  const detail = fullDetail.split('\n')[0]!;
  // Postgres has no time travel: no SQLSTATE to add.
  const timeTravel = await timeTravelError(info, context.timeTravel);
  if (timeTravel) return timeTravel;
  const postgres = postgresErrorOf(info.type, detail);
  if (postgres) return postgres;
  return withSqlstate(await serviceErrorOf(info, message, detail, context, error), info.type, fullDetail);
}

/** The service's code for a DuckDB error, by DuckDB's error type. */
async function serviceErrorOf(info: DuckDBErrorInfo, message: string, detail: string, context: ErrorContext, error: unknown): Promise<AppError> {
  switch (info.type) {
    case 'INTERRUPT':
      return queryTimeout();
    case 'Out of Memory':
      return new AppError('RESOURCE_EXHAUSTED', 'The query needs more memory than the workspace’s engine has', {
        hint: 'Aggregate or filter earlier, select fewer or smaller columns, or add a LIMIT.',
      });
    case 'Parser':
      return new AppError('SYNTAX_ERROR', `Syntax error: ${detail}`, { hint: locationHint(message) });
    case 'Catalog':
      if (/^Table (with name|.* does not exist)/i.test(info.detail)) return new AppError('UNDEFINED_TABLE', detail, { hint: didYouMean(message) });
      break;
    case 'Binder': {
      const column =
        /Referenced column "?([^"\s]+)"? not found|Values list "?[^"]*"? does not have a column named "?([^"\s]+)"?|column "?([^"\s]+)"? (?:does not exist|not found)/i.exec(
          info.detail,
        );
      if (column)
        return new AppError('UNDEFINED_COLUMN', `Column "${column[1] ?? column[2] ?? column[3]}" does not exist`, {
          hint: candidateHint(message) ?? locationHint(message),
        });
      break;
    }
    case 'Invalid Input':
      if (/No snapshot found at/i.test(info.detail))
        return new AppError('SNAPSHOT_NOT_FOUND', 'No snapshot exists at the requested time', { hint: 'Ask for a later time.' });
      break;
    case 'Permission':
      return new AppError('STATEMENT_NOT_ALLOWED', 'The query tried to reach something outside the workspace', {
        hint: 'Queries read the workspace’s own tables only.',
      });
    case 'TransactionContext':
      return new AppError('SERVICE_UNAVAILABLE', 'The workspace’s catalog is busy', { hint: 'Retry in a moment.', cause: error });
    case 'IO':
      // A live connection's database, read in place: the user's source, not the service's storage.
      if (/Postgres|server closed the connection/i.test(info.detail)) {
        return new AppError('SOURCE_ERROR', `A live connection's source could not be read: ${detail}`, {
          hint: 'Test the connection (POST …/connections/{id}/test).',
        });
      }
      return new AppError('SERVICE_UNAVAILABLE', 'The lake storage could not be read', { hint: 'Retry in a moment.', cause: error });
    case 'HTTP':
      return new AppError('SERVICE_UNAVAILABLE', 'The lake storage could not be read', { hint: 'Retry in a moment.', cause: error });
    case 'INTERNAL':
    case 'FATAL':
      return new AppError('SERVICE_UNAVAILABLE', 'The query engine failed and is being restarted', { hint: 'Retry in a moment.', cause: error });
    default:
      break;
  }
  return new AppError('QUERY_ERROR', detail, { hint: locationHint(message) });
}

/** The answer for a query stopped at its time limit (or refused because compiling used it up). */
export function queryTimeout(): AppError {
  return new AppError('QUERY_TIMEOUT', 'The query exceeded the time limit and was stopped', {
    hint: 'Narrow the query, or run it as a job.',
    advice: 'run-as-job',
  });
}

/**
 * What of the server a message may mention, replaced: the workspace's own data path by name, then
 * any URL (`s3://`, `file://`, `https://`…), any absolute path of two parts or more, any relative
 * path to a file of the kinds the engine keeps (catalogs, data, spill files) and what is left of
 * one in a shortened excerpt, and the values of a connection string's keys. A user's own text echoed
 * in a message may lose a path as well. Every pattern starts only where a run of its characters
 * starts, so a message echoing a long name takes linear time.
 */
const serverDetails: [RegExp, string][] = [
  [/(?<![\w+.-])[a-z][\w+.-]*:\/\/[^\s'"`]+/gi, '<path>'],
  [/(?<![\w.:/~>-])\/(?:[^\s'"`/]+\/)+[^\s'"`]*/g, '<path>'],
  [/(?<![\w./-])[\w.~-]+(?:\/[\w.~@%+=-]+)+\.(?:parquet|sqlite|db|duckdb|wal|csv|json|tmp)\b/gi, '<path>'],
  [/(?<![\w.~-])[\w.~-]*\.(?:parquet|sqlite|duckdb|wal)\b/gi, '<path>'],
  [/\b(password|passwd|pwd|user|host|hostaddr|port|dbname|sslkey|sslcert|sslrootcert|secret|key_id)=("[^"]*"|'[^']*'|[^\s'",;)]+)/gi, '$1=<redacted>'],
];

/**
 * An excerpt of the statement (`LINE 1: …` and its caret) that quotes what the engine wrote rather
 * than what the user sent: a file it reads, a path, a CTE's run name, a Postgres rule's macro.
 * Dropped whole, caret included.
 */
const rewrittenExcerpt = /^LINE \d+: .*(?:<path>|<workspace>|read_parquet|__cte_\d|pgx_\w+\(|__lateral).*(?:\n[ \t]*\^)?$/gm;

/** A name the caller wrote, as a message may show it: without what would read as a server path or URL. */
export function withoutServerDetails(text: string): string {
  return serverDetails.reduce((scrubbed, [pattern, replacement]) => scrubbed.replace(pattern, replacement), text);
}

/** A message about the engine's own work, as a user may read it: server paths, URLs and connection values removed. */
export function scrubServerDetails(message: string, paths: string[]): string {
  return scrub(message, paths);
}

function scrub(message: string, paths: string[]): string {
  const named = paths.reduce((text, path) => text.replaceAll(path, '<workspace>/'), message);
  const scrubbed = serverDetails.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), named);
  return scrubbed.replace(rewrittenExcerpt, '').replace(/\n{2,}/g, '\n');
}

function didYouMean(message: string): string | undefined {
  const match = /Did you mean "([^"]+)"/.exec(message);
  return match ? `Did you mean "${match[1]}"?` : undefined;
}

function candidateHint(message: string): string | undefined {
  const match = /Candidate bindings: (.+)/.exec(message);
  if (!match) return undefined;
  const candidates = match[1]!
    .split(',')
    .map((candidate) => candidate.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
  return candidates.length ? `Did you mean "${candidates[0]}"?` : undefined;
}

function locationHint(message: string): string | undefined {
  const lines = message.split('\n');
  const at = lines.findIndex((line) => line.startsWith('LINE '));
  return at >= 0 ? lines.slice(at, at + 2).join('\n') : undefined;
}
