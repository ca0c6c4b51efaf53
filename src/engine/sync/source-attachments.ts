import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../sql-literals';

/** Where a Postgres source is and how to log in; `hostaddr` pins the address the service checked. */
export interface PostgresSource {
  host: string;
  /** The address `host` resolved to when it was checked: connections go there, TLS still checks `host`. */
  hostaddr?: string;
  port: number;
  database: string;
  user: string;
  password: string;
  /** libpq's sslmode: disable, prefer, require, verify-ca, verify-full. */
  sslMode: string;
  connectTimeoutSeconds: number;
  /**
   * The one schema the attached database shows, when the connection reads only one: DuckDB then loads
   * the definitions of that schema's tables alone, not of every schema's (half the 25 ms a first
   * listing of the columns took).
   */
  schema?: string;
  /** Attached for writing too (false): only to manage what logical replication needs on the source (its publication). */
  readOnly?: boolean;
}

/**
 * Attaches a Postgres database read-only under `alias` (unless `readOnly` is false). The credentials go into a DuckDB secret (its
 * listing masks the password), the rest into the attach string, so that the attached database's
 * listing holds no password; errors quote the attach string, never the secret.
 */
export async function attachPostgres(connection: EngineConnection, alias: string, source: PostgresSource): Promise<void> {
  const secret = `${alias}_credentials`;
  const options = [
    `sslmode=${libpqValue(source.sslMode)}`,
    `connect_timeout=${Math.max(1, Math.trunc(source.connectTimeoutSeconds))}`,
    // A source's server chooses how the password travels: it gets one by SCRAM or not at all (never in
    // clear text, never as MD5, whatever it asks). No password file is read: the service's own would do.
    'require_auth=none,scram-sha-256',
    `passfile=${libpqValue(noPasswordFile)}`,
  ];
  if (source.hostaddr) options.push(`hostaddr=${libpqValue(source.hostaddr)}`);
  await connection.configure(
    [
      `CREATE OR REPLACE SECRET ${sqlIdentifier(secret)} (TYPE postgres, HOST ${sqlString(source.host)}, PORT ${Math.trunc(source.port)}, DATABASE ${sqlString(source.database)}, USER ${sqlString(source.user)}, PASSWORD ${sqlString(source.password)})`,
      `ATTACH IF NOT EXISTS ${sqlString(options.join(' '))} AS ${sqlIdentifier(alias)} (TYPE postgres, SECRET ${sqlIdentifier(secret)}${source.readOnly === false ? '' : ', READ_ONLY'}${source.schema === undefined ? '' : `, SCHEMA ${sqlString(source.schema)}`})`,
    ].join(';\n'),
  );
}

/** An S3-compatible store a source reads from, and the part of it the secret may be used for. */
export interface S3Source {
  /** `s3://bucket/prefix/`: the secret applies under this scope only. */
  scope: string;
  region: string;
  /** host[:port] of a custom endpoint; AWS when absent. */
  endpoint?: string;
  useSsl: boolean;
  urlStyle: 'path' | 'vhost';
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The HTTP proxy every request for the scope goes through (`host:port`, with its credentials). */
  proxy?: { address: string; username: string; password: string };
}

/** A secret for a source's bucket, scoped to it: the lake's own secret keeps its own, narrower scope. */
export async function createS3SourceSecret(connection: EngineConnection, name: string, source: S3Source): Promise<void> {
  const options = [
    'TYPE s3',
    `REGION ${sqlString(source.region)}`,
    `SCOPE ${sqlString(source.scope)}`,
    `URL_STYLE ${sqlString(source.urlStyle)}`,
    `USE_SSL ${source.useSsl ? 'true' : 'false'}`,
  ];
  if (source.endpoint) options.push(`ENDPOINT ${sqlString(source.endpoint)}`);
  // Keys are always given, empty for an anonymous source: without them DuckDB signs with the process's
  // own AWS_ACCESS_KEY_ID, the lake's, and would send its signatures to the source.
  options.push(`KEY_ID ${sqlString(source.accessKeyId ?? '')}`, `SECRET ${sqlString(source.accessKeyId ? (source.secretAccessKey ?? '') : '')}`);
  if (source.proxy) {
    const { address, username, password } = source.proxy;
    options.push(`HTTP_PROXY ${sqlString(address)}`, `HTTP_PROXY_USERNAME ${sqlString(username)}`, `HTTP_PROXY_PASSWORD ${sqlString(password)}`);
  }
  await connection.configure(`CREATE OR REPLACE SECRET ${sqlIdentifier(name)} (${options.join(', ')})`);
}

/** A password file that never exists: libpq reads ~/.pgpass when none is named, and warns about /dev/null. */
const noPasswordFile = '/nonexistent/oxbow-reads-no-password-file';

/** A libpq keyword value, single-quoted with its quotes and backslashes escaped. */
function libpqValue(value: string): string {
  if (value.includes('\0')) throw new Error('NUL byte in a connection option');
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
