import { duckdbErrorOf } from '../../engine/duckdb/duckdb-error';
import { SourceError } from '../source-error';

const kinds: [RegExp, SourceError['failure'], string][] = [
  [
    /server requested a (cleartext|hashed) password|auth method .* requirement .* failed|authentication method requirement .* failed/i,
    'auth',
    'Authentication refused (the password is sent by SCRAM only; configure the server with scram-sha-256)',
  ],
  [
    /password authentication failed|no pg_hba\.conf entry|role "[^"]*" does not exist|authentication failed|SCRAM|Kerberos|GSSAPI/i,
    'auth',
    'Authentication failed',
  ],
  [/database "[^"]*" does not exist/i, 'no_database', 'No such database'],
  [/\b(SSL|TLS)\b|certificate/i, 'tls', 'TLS connection failed'],
  [
    /Connection refused|could not connect|timeout expired|could not translate host name|No route to host|Network is unreachable|timed out|server closed the connection|Name or service not known/i,
    'unreachable',
    'Host unreachable',
  ],
];

/**
 * What a Postgres source's failure means, from libpq's message as DuckDB passes it on: host
 * unreachable, authentication failed, no such database, TLS, or anything else the server said.
 */
export function postgresSourceError(error: unknown): unknown {
  const info = duckdbErrorOf(error);
  if (!info || (info.type !== 'IO' && info.type !== 'Invalid Input' && info.type !== 'Binder' && info.type !== 'Catalog')) return error;
  // What the server or libpq said, without the attach string or query it quotes (whose words are not the failure's).
  const said = info.detail.replace(/^Unable to connect to Postgres at "[^"]*": /, '').replace(/^Failed to prepare query "[^"]*": /, '');
  const detail = said.split('\n')[0]!.trim();
  const known = kinds.find(([pattern]) => pattern.test(said));
  if (known) return new SourceError(known[1], `${known[2]}: ${detail}`);
  return new SourceError('other', `The source answered: ${detail}`);
}

/** Runs source work, turning DuckDB's errors about the source into SourceErrors. */
export async function fromSource<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw postgresSourceError(error);
  }
}
