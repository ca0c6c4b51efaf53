import postgres from 'postgres';

type Sql = postgres.Sql<Record<string, never>>;

/** Rows come back with the types Postgres gives them; this session only reads small ones. */
type Row = Record<string, unknown>;

/**
 * One Postgres session of its own: session advisory locks live exactly as long as the connection
 * that took them, so every statement here runs on a single connection that is never rotated, and
 * reports the backend it ran on. When that backend changes (the connection dropped and postgres.js
 * opened another), every lock taken before is gone: `onLost` says so, and the owner of the session
 * starts again from nothing. It also listens on channels, on the second connection LISTEN needs.
 */
export class PostgresSession {
  private readonly sql: Sql;
  private backend: number | undefined;
  private lostListeners: (() => void)[] = [];

  constructor(url: string, applicationName: string) {
    this.sql = postgres(url, {
      max: 1,
      // By default connections are replaced after 30 to 60 minutes, which would drop the locks; null
      // (which the driver reads as "never", though its types do not say so) keeps this one.
      max_lifetime: null as unknown as number,
      onnotice: () => {},
      connection: { application_name: applicationName, TimeZone: 'UTC' },
    }) as unknown as Sql;
  }

  /** The backend process id of the session (the one that holds its locks). */
  get pid(): number | undefined {
    return this.backend;
  }

  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  /**
   * Runs one statement on the session. Its text must select `pg_backend_pid() AS session_pid` among
   * its columns (and return a row): a different backend than before means the session was lost.
   */
  async query(text: string, params: readonly (string | number | null)[] = []): Promise<Row[]> {
    const rows = (await this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as Row[];
    const pid = rows[0] === undefined ? undefined : Number(rows[0].session_pid);
    if (pid !== undefined && !Number.isNaN(pid)) this.noteBackend(pid);
    return rows;
  }

  /** A statement whose rows do not matter, run on the session connection (it may carry no pid). */
  async run(text: string, params: readonly (string | number | null)[] = []): Promise<void> {
    await this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
  }

  notify(channel: string, payload: string): Promise<void> {
    return this.sql.notify(channel, payload).then(() => undefined);
  }

  /** `onListening` runs at every (re)start of listening: notices sent while the listener was away are lost. */
  async listen(channel: string, onPayload: (payload: string) => void, onListening: () => void): Promise<void> {
    await this.sql.listen(channel, onPayload, onListening);
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 2 });
  }

  private noteBackend(pid: number): void {
    const previous = this.backend;
    this.backend = pid;
    if (previous !== undefined && previous !== pid) for (const listener of this.lostListeners) listener();
  }
}
