import type { Logger } from '../logging/logger';
import type { PostgresSession } from './postgres-session';

export type MemberRole = 'api' | 'worker';

export interface Member {
  id: string;
  role: MemberRole;
  /** Where other replicas forward requests to (`http://host:port`); null for workers. */
  address: string | null;
}

export interface MembershipTiming {
  /** How often the lease is renewed and the live members read again. */
  heartbeatMs: number;
  /** A member that has not renewed its lease for this long is dropped, and its session ended. */
  leaseMs: number;
}

export const defaultMembershipTiming: MembershipTiming = { heartbeatMs: 1_000, leaseMs: 15_000 };

/** Joins and leaves are announced here, so that every member reads the live set again at once. */
const channel = 'oxbow_cluster';

const liveMembers = `
  SELECT m.id, m.role, m.address, pg_backend_pid() AS session_pid
  FROM cluster_members m
  WHERE m.expires_at > now()
    AND EXISTS (SELECT 1 FROM pg_locks l
                WHERE l.locktype = 'advisory' AND l.granted AND l.pid = m.session_pid
                  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('oxbow.member:' || m.id, 0))
  ORDER BY m.id`;

/**
 * A member whose lease ran out while its session still holds its lock is stalled or cut off from
 * the others: its session is ended, which frees its workspaces' locks for the members that take
 * them over. Rows of members long gone are removed.
 */
const fenceExpired = `
  WITH expired AS (
    SELECT m.session_pid FROM cluster_members m
    WHERE m.expires_at <= now() AND m.id <> $1
      AND EXISTS (SELECT 1 FROM pg_locks l
                  WHERE l.locktype = 'advisory' AND l.granted AND l.pid = m.session_pid
                    AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('oxbow.member:' || m.id, 0))
  )
  SELECT count(pg_terminate_backend(session_pid::int)) AS ended, pg_backend_pid() AS session_pid FROM expired`;

const forgetGone = `DELETE FROM cluster_members WHERE expires_at < now() - interval '1 minute'`;

/**
 * This process's membership among the processes that share the metadata database, and its view of
 * the live ones. Membership is Postgres' own: a member is live while its lease is current AND its
 * session holds its member lock, so a process killed outright leaves as soon as Postgres closes its
 * session (at the next read of the live set, within a heartbeat), and one that hangs leaves when its
 * lease runs out. Nothing here decides anything by vote: every member reads the same rows.
 */
export class Membership {
  private view: readonly Member[] = [];
  private listeners: ((members: readonly Member[]) => void)[] = [];
  private heartbeat: Timer | undefined;
  private refreshing: Promise<void> | undefined;
  private left = false;

  readonly self: Member;

  constructor(
    private readonly session: PostgresSession,
    self: { id: string; role: MemberRole },
    private readonly logger: Logger,
    private readonly timing: MembershipTiming = defaultMembershipTiming,
  ) {
    this.self = { ...self, address: null };
    // A lost session lost the member lock too: take it again and renew, before anyone fences us.
    session.onLost(() => {
      if (this.left) return;
      this.logger.warn('the cluster session was lost; joining again', { member_id: this.self.id });
      void this.register().catch((error: unknown) => this.logger.error('could not join the cluster again', { member_id: this.self.id, error }));
    });
  }

  /**
   * Takes the member lock, writes the lease, announces the join and reads the live members. `address`:
   * where the others forward requests to (API replicas, once their listener is up).
   */
  async join(address: string | null): Promise<void> {
    this.self.address = address;
    await this.session.listen(
      channel,
      () => void this.refresh(),
      () => void this.refresh(),
    );
    await this.register();
    await this.session.notify(channel, `joined ${this.self.id}`);
    this.heartbeat = setInterval(() => void this.beat(), this.timing.heartbeatMs);
    this.logger.info('joined the cluster', { member_id: this.self.id, role: this.self.role, address: this.self.address });
  }

  /** Between join and leave: while it is a member, the process owns its share of the workspaces. */
  get active(): boolean {
    return this.heartbeat !== undefined && !this.left;
  }

  /** The live members of a role, in a stable order (the same on every member that sees the same set). */
  members(role: MemberRole): readonly Member[] {
    return this.view.filter((member) => member.role === role);
  }

  onChange(listener: (members: readonly Member[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Takes the session lock named `name` if no other session holds it: held until unlock() or until the
   * session ends (the process dies, or its connection is lost: onSessionLost).
   */
  async tryLock(name: string): Promise<boolean> {
    const [row] = await this.session.query(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken, pg_backend_pid() AS session_pid`, [name]);
    return row?.taken === true;
  }

  async unlock(name: string): Promise<void> {
    await this.session.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS released, pg_backend_pid() AS session_pid`, [name]);
  }

  /** The session was lost: every lock it held is gone. */
  onSessionLost(listener: () => void): void {
    this.session.onLost(listener);
  }

  /** Reads the live set now (a forward found its target gone, a member announced itself). */
  refresh(): Promise<void> {
    this.refreshing ??= this.readLive().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Leaves at once: the others stop sending work here before this process stops serving. */
  async leave(): Promise<void> {
    if (this.left) return;
    this.left = true;
    clearInterval(this.heartbeat);
    this.setView(this.view.filter((member) => member.id !== this.self.id));
    try {
      await this.session.run('DELETE FROM cluster_members WHERE id = $1', [this.self.id]);
      await this.session.notify(channel, `left ${this.self.id}`);
    } catch (error) {
      this.logger.warn('could not announce leaving the cluster', { member_id: this.self.id, error });
    }
  }

  private async register(): Promise<void> {
    await this.session.query(`SELECT pg_advisory_lock(hashtextextended($1, 0)), pg_backend_pid() AS session_pid`, [`oxbow.member:${this.self.id}`]);
    await this.session.query(
      `INSERT INTO cluster_members (id, role, address, session_pid, started_at, expires_at)
       VALUES ($1, $2, $3, pg_backend_pid(), now(), now() + $4 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET session_pid = pg_backend_pid(), expires_at = excluded.expires_at
       RETURNING pg_backend_pid() AS session_pid`,
      [this.self.id, this.self.role, this.self.address, this.timing.leaseMs],
    );
    await this.readLive();
  }

  private async beat(): Promise<void> {
    if (this.left) return;
    try {
      const renewed = await this.session.query(
        `UPDATE cluster_members SET expires_at = now() + $2 * interval '1 millisecond' WHERE id = $1 AND session_pid = pg_backend_pid()
         RETURNING pg_backend_pid() AS session_pid`,
        [this.self.id, this.timing.leaseMs],
      );
      // Our row is gone or names another session: we were taken for dead. Join again.
      if (renewed.length === 0 && !this.left) await this.register();
      await this.session.query(fenceExpired, [this.self.id]);
      await this.session.run(forgetGone);
      await this.refresh();
    } catch (error) {
      this.logger.warn('could not renew the cluster lease', { member_id: this.self.id, error });
    }
  }

  private async readLive(): Promise<void> {
    const rows = await this.session.query(liveMembers);
    if (this.left) return;
    this.setView(rows.map((row) => ({ id: String(row.id), role: row.role as MemberRole, address: row.address === null ? null : String(row.address) })));
  }

  private setView(members: readonly Member[]): void {
    const before = this.view.map((member) => `${member.id}@${member.address}`).join(',');
    const after = members.map((member) => `${member.id}@${member.address}`).join(',');
    this.view = members;
    if (before === after) return;
    this.logger.info('cluster members changed', { member_id: this.self.id, members: members.map((member) => `${member.role}:${member.id}`) });
    for (const listener of this.listeners) listener(members);
  }
}
