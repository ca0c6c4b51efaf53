// `npm run bench -- scale`: many tenants over API replicas. N `api` and M `worker` processes
// (`bun src/main.ts api|worker`, as `npm run cluster` starts them) on the benchmark's Postgres, MinIO and
// Temporal; W workspaces on the Team plan, each with a small table. Then, in one run:
//  - Q small aggregate queries at once, spread over the replicas round-robin as a load balancer would
//    (most land on a replica that does not own their workspace and are forwarded to its owner), against
//    the same Q queries each sent to the replica that owns its workspace;
//  - SELECT 1 one at a time through the owner and through another replica: what forwarding adds;
//  - each process's memory and threads, and the connections Postgres holds, before and after.
// SCALE_WORKSPACES (50), SCALE_QUERIES (200), SCALE_APIS (2), SCALE_WORKERS (2) size it; the issue's
// larger case is SCALE_WORKSPACES=500 SCALE_APIS=4. Other variables (DUCKDB_MAX_INSTANCES…) reach the processes.
import { readFileSync } from 'node:fs';
import { namedQuery } from '../src/store/named-query';
import { Replicas } from '../test/support/replicas';
import type { ServiceProcess } from '../test/support/service-process';
import { moveToBenchPlan } from './bench-workspace';
import { median, percentile, report } from './support';

const size = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const workspaceCount = size('SCALE_WORKSPACES', 50);
const queryCount = size('SCALE_QUERIES', 200);
const apiCount = size('SCALE_APIS', 2);
const workerCount = size('SCALE_WORKERS', 2);
const overheadRounds = size('SCALE_OVERHEAD_ROUNDS', 200);

const useTeam = namedQuery<{ id: string }>('bench.scale_team', "UPDATE workspaces SET plan_id = 'team' WHERE id = :id");
const connections = namedQuery<Record<never, never>, { n: number }>(
  'bench.scale_connections',
  'SELECT CAST(count(*) AS INTEGER) AS n FROM pg_stat_activity WHERE datname = current_database()',
);
const aggregate = 'SELECT id % 10 AS k, count(*) AS n, sum(v) AS total FROM app.events GROUP BY 1 ORDER BY 1';

/** Resident memory (MiB) and threads of a process, from /proc. */
function footprint(process: ServiceProcess): { rssMiB: number; threads: number } {
  const status = readFileSync(`/proc/${process.child.pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(field('VmRSS') / 1024), threads: field('Threads') };
}

interface Timed {
  status: number;
  ms: number;
}

async function timedQuery(replicas: Replicas, via: ServiceProcess, token: string, workspaceId: string, sql: string): Promise<Timed> {
  const startedAt = performance.now();
  const answer = await replicas.call(via, '/api/v1/query', { token, json: { workspace_id: workspaceId, sql } });
  return { status: answer.status, ms: performance.now() - startedAt };
}

function summary(name: string, timings: Timed[]): Record<string, string | number> {
  const answered = timings.filter((timing) => timing.status === 200);
  const latencies = answered.map((timing) => timing.ms);
  const others = [...new Set(timings.filter((timing) => timing.status !== 200).map((timing) => timing.status))].join(' ');
  return {
    measure: name,
    answered: `${answered.length} of ${timings.length}${others ? ` (others: ${others})` : ''}`,
    p50_ms: latencies.length ? median(latencies).toFixed(1) : '-',
    p99_ms: latencies.length ? percentile(latencies, 99).toFixed(1) : '-',
  };
}

const replicas = await Replicas.start({ apis: apiCount, workers: workerCount });
try {
  const before = (await replicas.store.first(connections, {}))!.n;
  const { token } = await replicas.user('scale');
  const api = (i: number) => replicas.apis[i % replicas.apis.length]!;
  const workspaces: string[] = [];
  for (let i = 0; i < workspaceCount; i += 10) {
    workspaces.push(
      ...(await Promise.all(Array.from({ length: Math.min(10, workspaceCount - i) }, (_, j) => replicas.workspace(api(i + j), token, `scale${i + j}`)))),
    );
  }
  for (const workspaceId of workspaces) await replicas.store.run(useTeam, { id: workspaceId });
  // SELECT 1's overhead is timed in a workspace of its own, on a plan whose per-minute limit its rounds cannot reach.
  const probe = await replicas.workspace(api(0), token, 'scale-probe');
  await moveToBenchPlan(replicas.store, probe);
  const rows = Array.from({ length: 1_000 }, (_, id) => ({ id, v: id % 97 }));
  for (let i = 0; i < workspaces.length; i += 10) {
    await Promise.all(
      workspaces
        .slice(i, i + 10)
        .map((workspaceId, j) => replicas.call(api(i + j), `/api/v1/workspaces/${workspaceId}/push`, { token, json: { table: 'app.events', records: rows } })),
    );
  }
  // Every workspace answered once, so that its owner has its instance open (as much as DUCKDB_MAX_INSTANCES lets it).
  for (let i = 0; i < workspaces.length; i += 10)
    await Promise.all(workspaces.slice(i, i + 10).map((workspaceId, j) => timedQuery(replicas, api(i + j), token, workspaceId, aggregate)));
  const ownerOf = new Map(workspaces.map((workspaceId) => [workspaceId, replicas.ownerOf(workspaceId)]));

  const load = (via: (i: number, workspaceId: string) => ServiceProcess) =>
    Promise.all(
      Array.from({ length: queryCount }, (_, i) => {
        const workspaceId = workspaces[i % workspaces.length]!;
        return timedQuery(replicas, via(i, workspaceId), token, workspaceId, aggregate);
      }),
    );
  const roundRobin = await load((i) => api(i));
  const owners = await load((_, workspaceId) => ownerOf.get(workspaceId)!);

  // Its instance opened first (on its owner, wherever the query lands), so that the rounds time the request path alone.
  for (let i = 0; i < 5; i++) await timedQuery(replicas, api(0), token, probe, 'SELECT 1');
  const owner = replicas.ownerOf(probe);
  const elsewhere = replicas.other(owner);
  const direct: Timed[] = [];
  const forwarded: Timed[] = [];
  for (let i = 0; i < overheadRounds; i++) {
    direct.push(await timedQuery(replicas, owner, token, probe, 'SELECT 1'));
    forwarded.push(await timedQuery(replicas, elsewhere, token, probe, 'SELECT 1'));
  }
  const after = (await replicas.store.first(connections, {}))!.n;

  const rr = summary(`${queryCount} queries over ${workspaceCount} workspaces, round-robin over ${apiCount} replicas`, roundRobin);
  const own = summary(`the same, each sent to its workspace's owner`, owners);
  const p99Ratio = Number(rr.p99_ms) / Number(own.p99_ms);
  const addedP50 = median(forwarded.map((timing) => timing.ms)) - median(direct.map((timing) => timing.ms));
  report(
    'scale',
    [
      rr,
      own,
      { measure: 'p99 round-robin ÷ p99 owner (target ≤ 2)', answered: '', p50_ms: '', p99_ms: p99Ratio.toFixed(2) },
      summary(`SELECT 1 through the owner, ${overheadRounds} in a row`, direct),
      summary('SELECT 1 forwarded by another replica', forwarded),
      { measure: 'added by forwarding, p50 (target ≤ 1 ms)', answered: '', p50_ms: addedP50.toFixed(2), p99_ms: '' },
      ...[...replicas.apis, ...replicas.workers].map((process, i) => {
        const { rssMiB, threads } = footprint(process);
        return {
          measure: `${i < replicas.apis.length ? 'api' : 'worker'} process ${i + 1}: memory MiB / threads`,
          answered: '',
          p50_ms: String(rssMiB),
          p99_ms: String(threads),
        };
      }),
      { measure: 'Postgres connections, before / after', answered: '', p50_ms: String(before), p99_ms: String(after) },
    ],
    { workspaces: workspaceCount, queries: queryCount, apis: apiCount, workers: workerCount },
  );
} finally {
  await replicas.stop();
}
