import { AppError } from '../../errors/app-error';
import { StatementAbandoned } from '../duckdb/pending-statement';

export interface ErrorContext {
  sql: string;
  /** Paths that must never appear in a message (the workspace's data and temp folders). */
  privatePaths: string[];
  /** The earliest time time travel can reach, for SNAPSHOT_NOT_FOUND's hint. */
  earliestSnapshot?: () => Promise<string | undefined>;
}

/**
 * The one place where DuckDB's errors become the service's codes, each with a useful hint. Messages
 * that reach the client are stripped of server paths; anything unexpected is a 500 without details.
 */
export async function mapDuckDBError(error: unknown, context: ErrorContext): Promise<AppError> {
  if (error instanceof AppError) return error;
  if (error instanceof StatementAbandoned) return queryTimeout();
  const raw = error instanceof Error ? error.message : String(error);
  const message = scrub(raw, context.privatePaths);
  const firstLine = message.split('\n')[0]!.replace(/^[A-Za-z ]+ Error: /, '');

  if (/^INTERRUPT Error/i.test(raw) || /Interrupted/i.test(raw)) return queryTimeout();
  if (/^Out of Memory Error/i.test(raw)) {
    return new AppError('RESOURCE_EXHAUSTED', 'The query needs more memory than the workspace’s engine has', {
      hint: 'Aggregate or filter earlier, select fewer or smaller columns, or add a LIMIT.',
    });
  }
  if (/No snapshot found at/i.test(raw)) {
    const earliest = await context.earliestSnapshot?.().catch(() => undefined);
    return new AppError('SNAPSHOT_NOT_FOUND', 'No snapshot of the table exists at the requested time', {
      hint: earliest ? `The earliest available time is ${earliest}.` : 'Ask for a later time.',
    });
  }
  if (/^Parser Error/i.test(raw)) return new AppError('SYNTAX_ERROR', `Syntax error: ${firstLine}`, { hint: locationHint(message) });
  if (/^Catalog Error: Table with name/i.test(raw) || /^Catalog Error: Table .* does not exist/i.test(raw)) {
    return new AppError('UNDEFINED_TABLE', firstLine, { hint: didYouMean(message) });
  }
  const column = /Referenced column "?([^"\s]+)"? not found|Values list "?[^"]*"? does not have a column named "?([^"\s]+)"?|column "?([^"\s]+)"? (?:does not exist|not found)/i.exec(raw);
  if (column && /^Binder Error/i.test(raw)) {
    const name = column[1] ?? column[2] ?? column[3];
    return new AppError('UNDEFINED_COLUMN', `Column "${name}" does not exist`, { hint: candidateHint(message) ?? locationHint(message) });
  }
  if (/^Permission Error/i.test(raw)) {
    return new AppError('STATEMENT_NOT_ALLOWED', 'The query tried to reach something outside the workspace', { hint: 'Queries read the workspace’s own tables only.' });
  }
  if (/^IO Error: .*(Postgres|server closed the connection)/i.test(raw)) {
    return new AppError('SOURCE_ERROR', `A live connection's source could not be read: ${firstLine}`, { hint: 'Test the connection (POST …/connections/{id}/test).' });
  }
  if (/^(Binder|Conversion|Invalid Input|Out of Range|Catalog|Constraint|Not implemented|Parser) Error/i.test(raw)) {
    return new AppError('QUERY_ERROR', firstLine, { hint: locationHint(message) });
  }
  return new AppError('INTERNAL_ERROR', 'The query failed unexpectedly', { cause: error });
}

/** The answer for a query stopped at its time limit (or refused because compiling used it up). */
export function queryTimeout(): AppError {
  return new AppError('QUERY_TIMEOUT', 'The query exceeded the time limit and was stopped', { hint: 'Narrow the query, or run it as a job with POST /api/v1/query/jobs.' });
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
 * than what the user sent: a file it reads, a path, a CTE's run name. Dropped whole, caret included.
 */
const rewrittenExcerpt = /^LINE \d+: .*(?:<path>|<workspace>|read_parquet|__cte_\d).*(?:\n[ \t]*\^)?$/gm;

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
  const candidates = match[1]!.split(',').map((candidate) => candidate.trim().replace(/^"|"$/g, '')).filter(Boolean);
  return candidates.length ? `Did you mean "${candidates[0]}"?` : undefined;
}

function locationHint(message: string): string | undefined {
  const lines = message.split('\n');
  const at = lines.findIndex((line) => line.startsWith('LINE '));
  return at >= 0 ? lines.slice(at, at + 2).join('\n') : undefined;
}
