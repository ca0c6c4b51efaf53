import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { bodyOf } from '../../support/http';
import { pushOk, query, runQuery, withCatalogElsewhere } from '../../support/lake';
import { transformsPath } from '../../support/transforms';
import { formatSnapshotTime } from '../../../web/src/ui/format';

/**
 * Every snapshot time the service prints reads, given back to FOR SYSTEM_TIME AS OF, the snapshot it
 * names; every time at which a table that exists (or existed) was not there is SNAPSHOT_NOT_FOUND,
 * with a hint naming the earliest time that reads it; a table that never existed is UNDEFINED_TABLE.
 */
for (const backend of backends) {
  describe(`how far back time travel reaches, on ${backend}`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await startTestApp(backend);
      user = await createVerifiedUser(t, 'reach');
    });
    afterAll(() => t.stop());

    const newWorkspace = async () => (await createWorkspace(t, user, 'reach')).id;
    const rowsAt = (ws: string, table: string, time: string) => query(t, ws, `SELECT n FROM ${table} FOR SYSTEM_TIME AS OF '${time}' ORDER BY n`);
    const failureAt = async (ws: string, table: string, time: string) => {
      try {
        await runQuery(t, ws, `SELECT n FROM ${table} FOR SYSTEM_TIME AS OF '${time}'`);
      } catch (error) {
        return error as { code: string; status: number; message: string; hint?: string };
      }
      throw new Error(`${table} read as of ${time}`);
    };
    const metadata = async (ws: string, table: string) => {
      const response = await t.request(`/api/v1/workspaces/${ws}/query/tables/${table}/metadata`, { token: user.accessToken });
      return { status: response.status, body: await bodyOf(response) };
    };
    const history = async (ws: string, table: string) => {
      const response = await t.request(`/api/v1/workspaces/${ws}/query/tables/${table}/history`, { token: user.accessToken });
      return { status: response.status, body: await bodyOf(response) };
    };
    const dropTable = async (ws: string, schema: string, table: string) => {
      expect((await t.request(`/api/v1/query/tables/${schema}/${table}?workspace=${ws}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    };

    test('every time the metadata, the history and the hint print reads the snapshot it names', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'shop.items', records: [{ n: 1 }, { n: 2 }] });
      await pushOk(t, ws, user, { table: 'shop.items', records: [{ n: 3 }] });
      await pushOk(t, ws, user, { table: 'shop.items', records: [{ n: 9 }], mode: 'overwrite' });
      const snapshots = await catalogSnapshots(t, ws);

      const { body: detail } = await metadata(ws, 'shop.items');
      for (const time of [detail.created_at, detail.updated_at, detail.earliest_snapshot_at]) expect(time).toMatch(microsecondIso);
      expect(detail.created_at).toBe(isoOf(snapshots.get(1)!));
      expect(await rowsAt(ws, 'shop.items', detail.created_at)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await rowsAt(ws, 'shop.items', detail.earliest_snapshot_at)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await rowsAt(ws, 'shop.items', detail.updated_at)).toEqual([{ n: 9 }]);

      const { body: entries } = await history(ws, 'shop.items');
      expect(entries.map((entry: { snapshot_id: number }) => entry.snapshot_id)).toEqual([3, 2, 1]);
      for (const entry of entries) {
        expect(entry.committed_at).toBe(isoOf(snapshots.get(entry.snapshot_id)!));
        expect(await rowsAt(ws, 'shop.items', entry.committed_at)).toEqual(
          await query(t, ws, `SELECT n FROM shop.items AT (VERSION => ${entry.snapshot_id}) ORDER BY n`),
        );
      }

      // One microsecond earlier is the snapshot before: the precision is what makes the round trip.
      expect(await rowsAt(ws, 'shop.items', isoOf(snapshots.get(3)! - 1n))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const before = await failureAt(ws, 'shop.items', isoOf(snapshots.get(1)! - 1n));
      expect(before).toMatchObject({ code: 'SNAPSHOT_NOT_FOUND', status: 400, hint: `The earliest available time is ${detail.earliest_snapshot_at}.` });
      expect(await rowsAt(ws, 'shop.items', hintedTime(before.hint))).toEqual([{ n: 1 }, { n: 2 }]);
      // As the console shows them, too.
      expect(await rowsAt(ws, 'shop.items', formatSnapshotTime(detail.earliest_snapshot_at))).toEqual([{ n: 1 }, { n: 2 }]);
      for (const entry of entries)
        expect(await rowsAt(ws, 'shop.items', formatSnapshotTime(entry.committed_at))).toEqual(await rowsAt(ws, 'shop.items', entry.committed_at));
      // The same moment with an offset reads the same snapshot.
      expect(await rowsAt(ws, 'shop.items', withOffset(snapshots.get(2)!, 2))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(await rowsAt(ws, 'shop.items', withOffset(snapshots.get(2)! - 1n, -5))).toEqual([{ n: 1 }, { n: 2 }]);
    });

    test('before the catalog, between it and the schema, between the schema and the table: SNAPSHOT_NOT_FOUND', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'early.first', records: [{ n: 1 }] });
      await pushOk(t, ws, user, { table: 'late.other', records: [{ n: 2 }] });
      await pushOk(t, ws, user, { table: 'early.second', records: [{ n: 3 }] });
      const snapshots = await catalogSnapshots(t, ws);
      const catalogCreated = snapshots.get(0)!;
      const earliest = (await metadata(ws, 'early.second')).body.earliest_snapshot_at;
      expect(earliest).toBe(isoOf(snapshots.get(3)!));

      const probes = {
        'long before the catalog': '2001-01-01T00:00:00Z',
        'just before the catalog': isoOf(catalogCreated - 1n),
        'when the catalog was created': isoOf(catalogCreated),
        'before its schema existed': isoOf(snapshots.get(1)! - 1n),
        'after its schema was created': isoOf(snapshots.get(1)!),
        'just before it was created': isoOf(snapshots.get(3)! - 1n),
      };
      for (const [when, time] of Object.entries(probes)) {
        const failure = await failureAt(ws, 'early.second', time);
        expect({ when, ...failure }).toMatchObject({ when, code: 'SNAPSHOT_NOT_FOUND', status: 400, hint: `The earliest available time is ${earliest}.` });
        expect(failure.message).toContain('early.second');
      }
      // A schema created after the time asked for.
      expect(await failureAt(ws, 'late.other', isoOf(snapshots.get(2)! - 1n))).toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        hint: `The earliest available time is ${isoOf(snapshots.get(2)!)}.`,
      });
      expect(await rowsAt(ws, 'early.second', earliest)).toEqual([{ n: 3 }]);

      // Two tables as of different times: the hint names the one missing then.
      const joined = runQuery(
        t,
        ws,
        `SELECT a.n FROM early.first FOR SYSTEM_TIME AS OF '${isoOf(snapshots.get(1)!)}' AS a, early.second FOR SYSTEM_TIME AS OF '${isoOf(snapshots.get(2)!)}' AS b`,
      );
      expect(joined).rejects.toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        message: 'No snapshot of early.second exists at the requested time',
        hint: `The earliest available time is ${earliest}.`,
      });
      // Read live beside itself as of a time, the table still answers SNAPSHOT_NOT_FOUND for the time.
      const beside = runQuery(t, ws, `SELECT * FROM early.second, early.second FOR SYSTEM_TIME AS OF '${isoOf(snapshots.get(2)!)}' AS old`);
      expect(beside).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
    });

    test('a table that never existed is UNDEFINED_TABLE at any time', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'shop.items', records: [{ n: 1 }] });
      const now = new Date().toISOString();
      for (const table of ['shop.never', 'nowhere.never', 'never']) {
        for (const time of ['2001-01-01T00:00:00Z', now]) expect(await failureAt(ws, table, time)).toMatchObject({ code: 'UNDEFINED_TABLE', status: 400 });
      }
    });

    test('a table dropped and created again reads from its new creation; a dropped one has no past', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'again.t', records: [{ n: 1 }] });
      await pushOk(t, ws, user, { table: 'again.t', records: [{ n: 2 }] });
      await pushOk(t, ws, user, { table: 'again.gone', records: [{ n: 5 }] });
      await dropTable(ws, 'again', 't');
      await dropTable(ws, 'again', 'gone');
      await pushOk(t, ws, user, { table: 'again.t', records: [{ n: 7 }] });
      const snapshots = await catalogSnapshots(t, ws);
      const recreated = isoOf(snapshots.get(6)!);

      const { body: detail } = await metadata(ws, 'again.t');
      expect(detail).toMatchObject({ created_at: recreated, updated_at: recreated, earliest_snapshot_at: recreated });
      const { body: entries } = await history(ws, 'again.t');
      expect(entries).toEqual([expect.objectContaining({ snapshot_id: 6, committed_at: recreated, changes: ['created', 'inserted'] })]);
      expect(await rowsAt(ws, 'again.t', recreated)).toEqual([{ n: 7 }]);

      // Its first life's files went with the drop: every time before the new creation.
      for (const id of [1, 2, 3, 4, 5]) {
        const failure = await failureAt(ws, 'again.t', isoOf(snapshots.get(id)!));
        expect({ id, ...failure }).toMatchObject({ id, code: 'SNAPSHOT_NOT_FOUND', status: 400, hint: `The earliest available time is ${recreated}.` });
      }
      expect(await failureAt(ws, 'again.t', isoOf(snapshots.get(6)! - 1n))).toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });

      for (const id of [2, 3, 5]) {
        const failure = await failureAt(ws, 'again.gone', isoOf(snapshots.get(id)!));
        expect({ id, ...failure }).toMatchObject({
          id,
          code: 'SNAPSHOT_NOT_FOUND',
          status: 400,
          hint: 'again.gone was dropped, and its data deleted with it.',
        });
      }
      expect((await metadata(ws, 'again.gone')).status).toBe(404);
      expect((await history(ws, 'again.gone')).status).toBe(404);
    });

    test('a table replaced within one snapshot, as a sync swaps one in, keeps its past', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'swap.t', records: [{ n: 1 }] });
      await pushOk(t, ws, user, { table: 'swap.staged', records: [{ n: 8 }, { n: 9 }] });
      await withCatalogElsewhere(t, ws, 'other', async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        await connection.run('DROP TABLE other.swap.t');
        await connection.run('ALTER TABLE other.swap.staged RENAME TO t');
        await connection.run('COMMIT');
      });
      const snapshots = await catalogSnapshots(t, ws);
      const { body: detail } = await metadata(ws, 'swap.t');
      expect(detail.earliest_snapshot_at).toBe(isoOf(snapshots.get(1)!));
      expect(detail.updated_at).toBe(isoOf(snapshots.get(3)!));
      expect(await rowsAt(ws, 'swap.t', detail.earliest_snapshot_at)).toEqual([{ n: 1 }]);
      expect(await rowsAt(ws, 'swap.t', detail.updated_at)).toEqual([{ n: 8 }, { n: 9 }]);
      const { body: entries } = await history(ws, 'swap.t');
      expect(entries.map((entry: { snapshot_id: number }) => entry.snapshot_id)).toContain(1);
      for (const entry of entries) expect((await rowsAt(ws, 'swap.t', entry.committed_at)).length).toBeGreaterThan(0);
    });

    test('once maintenance expired the first snapshots, the times shown are the earliest kept, and read', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'old.t', records: [{ n: 1 }] });
      await pushOk(t, ws, user, { table: 'old.t', records: [{ n: 2 }] });
      await pushOk(t, ws, user, { table: 'old.t', records: [{ n: 3 }] });
      const snapshots = await catalogSnapshots(t, ws);
      await withCatalogElsewhere(t, ws, 'other', (connection) => connection.run(`CALL ducklake_expire_snapshots('other', versions => [1])`));

      const { status, body: detail } = await metadata(ws, 'old.t');
      expect(status).toBe(200);
      const kept = isoOf(snapshots.get(2)!);
      expect(detail).toMatchObject({ created_at: kept, earliest_snapshot_at: kept, updated_at: isoOf(snapshots.get(3)!) });
      expect(await rowsAt(ws, 'old.t', kept)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await failureAt(ws, 'old.t', isoOf(snapshots.get(1)!))).toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        hint: `The earliest available time is ${kept}.`,
      });
      const { body: entries } = await history(ws, 'old.t');
      expect(entries.map((entry: { snapshot_id: number }) => entry.snapshot_id)).toEqual([3, 2]);
    });

    test('a transform reading a table as of a time before it existed is SNAPSHOT_NOT_FOUND', async () => {
      const ws = await newWorkspace();
      await pushOk(t, ws, user, { table: 'src.a', records: [{ n: 1 }] });
      await pushOk(t, ws, user, { table: 'src.b', records: [{ n: 2 }] });
      const snapshots = await catalogSnapshots(t, ws);
      const response = await t.request(transformsPath(ws), {
        method: 'POST',
        token: user.accessToken,
        json: { name: 'old_b', sql: `SELECT n FROM src.b FOR SYSTEM_TIME AS OF '${isoOf(snapshots.get(1)!)}'`, target_table: 'out.old_b' },
      });
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).detail.error).toMatchObject({
        code: 'SNAPSHOT_NOT_FOUND',
        hint: `The earliest available time is ${isoOf(snapshots.get(2)!)}.`,
      });
    });
  });
}

const microsecondIso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** Each snapshot's time, in microseconds since the epoch, read from the catalog by an instance of its own. */
async function catalogSnapshots(t: TestApp, workspaceId: string): Promise<Map<number, bigint>> {
  const rows = await withCatalogElsewhere(t, workspaceId, 'other', async (connection) =>
    (await connection.read('SELECT snapshot_id, epoch_us(snapshot_time) FROM other.snapshots()')).getRows(),
  );
  return new Map(rows.map(([id, us]) => [Number(id), BigInt(us as bigint)]));
}

/** The UTC text of a time in microseconds, written here independently of the service's own helper. */
function isoOf(microseconds: bigint): string {
  const date = new Date(Number(microseconds / 1000n));
  return `${date.toISOString().slice(0, 19)}.${String(microseconds % 1_000_000n).padStart(6, '0')}Z`;
}

/** The same moment as seen `hours` east of UTC, with its offset. */
function withOffset(microseconds: bigint, hours: number): string {
  const shifted = isoOf(microseconds + BigInt(hours) * 3_600_000_000n).slice(0, -1);
  const sign = hours < 0 ? '-' : '+';
  return `${shifted}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

function hintedTime(hint: string | undefined): string {
  const match = /earliest available time is (\S+)\.$/.exec(hint ?? '');
  if (!match) throw new Error(`no time in the hint ${hint}`);
  return match[1]!;
}
