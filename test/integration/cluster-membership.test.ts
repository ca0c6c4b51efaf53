import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { PostgresSession } from '../../src/cluster/postgres-session';
import { Membership } from '../../src/cluster/membership';
import { ClusterOwnership, type OwnerRoute } from '../../src/cluster/ownership';
import { PostgresNotices, type ChangeNotice } from '../../src/cluster/change-notices';
import { rendezvous } from '../../src/cluster/rendezvous';
import { createLogger } from '../../src/logging/logger';
import { openStore } from '../../src/store/open-store';
import { migrate } from '../../src/store/migrations';
import { createDatabase } from '../support/backends';
import { eventually } from '../support/eventually';

/**
 * Membership, ownership and notices of processes sharing one Postgres, each member with a session of
 * its own as a process has: who is live, who owns a workspace, how a workspace moves when its owner
 * leaves or dies, and how a change reaches every member.
 */
const logger = createLogger({ level: 'error' });
let url: string;
let dropDatabase: () => Promise<void>;
const opened: { session: PostgresSession; membership?: Membership }[] = [];

beforeAll(async () => {
  const database = await createDatabase();
  url = database.url;
  dropDatabase = database.drop;
  const store = openStore({ kind: 'postgres', url, maxConnections: 1 });
  await migrate(store);
  await store.close();
});

afterAll(async () => {
  for (const { session, membership } of opened) {
    await membership?.leave();
    await session.close().catch(() => {});
  }
  await dropDatabase();
});

async function member(role: 'api' | 'worker' = 'api') {
  const session = new PostgresSession(url, 'oxbow-cluster');
  const membership = new Membership(session, { id: Bun.randomUUIDv7(), role }, logger, { heartbeatMs: 200, leaseMs: 3_000 });
  opened.push({ session, membership });
  await membership.join(role === 'api' ? `http://127.0.0.1:${10_000 + opened.length}` : null);
  const closed: string[] = [];
  const ownership = new ClusterOwnership(
    membership,
    { claimWaitMs: 1_000, drainMs: 2_000, closeWorkspace: async (workspaceId) => void closed.push(workspaceId) },
    logger,
  );
  return { session, membership, ownership, closed };
}

/** Two API members that see each other, and a workspace the first owns. */
async function twoReplicas() {
  const a = await member();
  const b = await member();
  await eventually(
    () => b.membership.refresh().then(() => b.membership.members('api').length),
    (count) => count >= 2,
  );
  return { a, b, workspaceId: ownedBy(a.membership.self, b.membership.members('api')) };
}

const ids = (members: readonly { id: string }[]) => members.map((entry) => entry.id).sort();

/** A workspace id whose rendezvous owner among the members is `owner`. */
function ownedBy(owner: { id: string }, members: readonly { id: string }[]): string {
  for (;;) {
    const workspaceId = crypto.randomUUID();
    if (rendezvous(workspaceId, members)?.id === owner.id) return workspaceId;
  }
}

function done(route: OwnerRoute): void {
  if (route.kind === 'local') route.done();
}

describe('members sharing one Postgres', () => {
  test('every member sees the same live members and agrees on each workspace’s owner; only the owner serves it', async () => {
    const a = await member();
    const b = await member();
    const w = await member('worker');
    const everyone = ids([a.membership.self, b.membership.self, w.membership.self]);
    for (const { membership } of [a, b, w]) {
      await eventually(
        () => membership.refresh().then(() => ids(membership.members('api').concat(membership.members('worker')))),
        (seen) => everyone.every((id) => seen.includes(id)),
      );
    }
    const apis = a.membership.members('api');
    const workspaceId = ownedBy(a.membership.self, apis);
    expect(rendezvous(workspaceId, b.membership.members('api'))?.id).toBe(a.membership.self.id);

    const here = await a.ownership.route(workspaceId, false);
    expect(here.kind).toBe('local');
    const there = await b.ownership.route(workspaceId, false);
    expect(there).toEqual({ kind: 'forward', member: a.membership.self });
    // Forwarded to b, which does not own it: answered 503, never sent on again.
    expect((await b.ownership.route(workspaceId, true)).kind).toBe('moving');
    done(here);
    await a.membership.leave();
    await b.membership.leave();
    await w.membership.leave();
  }, 30_000);

  test('an owner that leaves finishes its requests, closes the workspace, then the next owner takes it', async () => {
    const { a, b, workspaceId } = await twoReplicas();
    const running = await a.ownership.route(workspaceId, false);
    expect(running.kind).toBe('local');

    await a.membership.leave();
    await eventually(
      () => b.membership.refresh().then(() => b.membership.members('api').some((entry) => entry.id === a.membership.self.id)),
      (present) => !present,
    );
    // Its request still runs on a: b waits for the lock, and answers 503 after its wait.
    expect((await b.ownership.route(workspaceId, false)).kind).toBe('moving');
    expect(a.closed).toEqual([]);
    done(running);
    const taken = await eventually(
      () => b.ownership.route(workspaceId, false),
      (route) => route.kind === 'local',
      5_000,
    );
    expect(taken.kind).toBe('local');
    expect(a.closed).toEqual([workspaceId]);
    done(taken);
    await b.membership.leave();
  }, 30_000);

  test('an owner that dies (its session ends with it) is gone at the next read of the members, and its workspaces are taken at once', async () => {
    const { a, b, workspaceId } = await twoReplicas();
    done(await a.ownership.route(workspaceId, false));

    // What Postgres sees of a process killed outright: its connections close, its row stays behind.
    await a.session.close();
    const killedAt = performance.now();
    const taken = await eventually(
      () => b.ownership.route(workspaceId, false),
      (route) => route.kind === 'local',
      5_000,
    );
    expect(taken.kind).toBe('local');
    expect(performance.now() - killedAt).toBeLessThan(3_000);
    done(taken);
    await b.membership.leave();
  }, 30_000);

  test('a member whose session is lost (the process lives on) lets go of what it held and joins again', async () => {
    const a = await member();
    const workspaceId = crypto.randomUUID();
    done(await a.ownership.route(workspaceId, false));
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin`SELECT pg_terminate_backend(${a.session.pid!})`;
    await admin.end();
    // Its next heartbeat finds another backend: every lock went with the old one, so what it held is closed.
    await eventually(
      () => a.closed.length,
      (count) => count === 1,
      3_000,
    );
    expect(a.closed).toEqual([workspaceId]);
    await eventually(
      () => a.membership.refresh().then(() => a.membership.members('api').some((entry) => entry.id === a.membership.self.id)),
      (present) => present,
      3_000,
    );
    // And it takes the workspace again on the new session when next asked.
    const again = await a.ownership.route(workspaceId, false);
    expect(again.kind).toBe('local');
    done(again);
    await a.membership.leave();
  }, 30_000);

  test('a change notice reaches every process once, the one that made it first', async () => {
    const sessions = [new PostgresSession(url, 'oxbow-cluster'), new PostgresSession(url, 'oxbow-cluster')];
    for (const session of sessions) opened.push({ session });
    const notices = sessions.map((session) => new PostgresNotices(session, logger));
    const heard: ChangeNotice[][] = [[], []];
    for (const [index, channel] of notices.entries()) {
      await channel.start();
      channel.subscribe((notice) => heard[index]!.push(notice));
    }
    const notice: ChangeNotice = { kind: 'workspace_deleted', workspaceId: crypto.randomUUID() };
    await notices[0]!.publish(notice);
    expect(heard[0]).toEqual([notice]);
    await eventually(
      () => heard[1]!.length,
      (count) => count > 0,
    );
    await Bun.sleep(100);
    expect(heard).toEqual([[notice], [notice]]);
  }, 30_000);
});
