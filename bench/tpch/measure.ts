import { median, timed } from '../support';
import type { TpchQuery } from './generate';
import type { Rows } from './results';

/** An engine that runs a TPC-H query text (adapting it the way that engine needs) and returns its rows. */
export interface QueryEngine {
  name: string;
  /** `'timeout'` when the engine gave up at its statement timeout. */
  run(sql: string): Promise<Rows | 'timeout'>;
  /** Untimed upkeep before a run (a client renewing its access token). */
  beforeRun?(): Promise<void>;
  close(): Promise<void>;
}

export type Measurement = { kind: 'timed'; runsMs: number[]; medianMs: number; rows: Rows } | { kind: 'timeout' } | { kind: 'failed'; error: string };

export interface MeasureOptions {
  runs: number;
  /** A warm-up slower than this is followed by one timed run instead of `runs`. */
  slowMs: number;
}

/** Per engine name, per query number. */
export type Measurements = Map<string, Map<number, Measurement>>;

type Attempt = { kind: 'ran'; ms: number; rows: Rows } | { kind: 'timeout' } | { kind: 'failed'; error: string };

/**
 * Each query on every engine: one warm-up each (its rows are kept for comparison), then the timed
 * runs taking turns between the engines, so that a change in the machine's load hits all alike.
 */
export async function measureSideBySide(engines: QueryEngine[], queries: TpchQuery[], options: MeasureOptions): Promise<Measurements> {
  const measurements: Measurements = new Map(engines.map((engine) => [engine.name, new Map()]));
  for (const query of queries) {
    const warmUps = new Map<QueryEngine, Attempt>();
    const runsMs = new Map<QueryEngine, number[]>();
    for (const engine of engines) warmUps.set(engine, await attempt(engine, query.sql));
    for (let round = 0; round < options.runs; round++) {
      for (const engine of engines) {
        const warmUp = warmUps.get(engine)!;
        const runs = runsMs.get(engine) ?? [];
        const wanted = warmUp.kind === 'ran' && warmUp.ms > options.slowMs ? 1 : options.runs;
        if (warmUp.kind !== 'ran' || runs.length >= wanted) continue;
        const run = await attempt(engine, query.sql);
        if (run.kind !== 'ran') warmUps.set(engine, run);
        else runsMs.set(engine, [...runs, run.ms]);
      }
    }
    for (const engine of engines) {
      const warmUp = warmUps.get(engine)!;
      const runs = runsMs.get(engine) ?? [];
      const measurement: Measurement = warmUp.kind === 'ran' ? { kind: 'timed', runsMs: runs, medianMs: median(runs), rows: warmUp.rows } : warmUp;
      measurements.get(engine.name)!.set(query.nr, measurement);
      console.log(`[tpch] Q${query.nr} ${engine.name}: ${describe(measurement)}`);
    }
  }
  return measurements;
}

/** One run, timed; a timeout or an error is recorded, not thrown. */
async function attempt(engine: QueryEngine, sql: string): Promise<Attempt> {
  try {
    await engine.beforeRun?.();
    const { ms, value } = await timed(() => engine.run(sql));
    return value === 'timeout' ? { kind: 'timeout' } : { kind: 'ran', ms, rows: value };
  } catch (error) {
    return { kind: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

function describe(measurement: Measurement): string {
  switch (measurement.kind) {
    case 'timed':
      return `${measurement.runsMs.map((ms) => ms.toFixed(1)).join(', ')} ms`;
    case 'timeout':
      return 'timed out';
    case 'failed':
      return `failed: ${measurement.error}`;
    default:
      return measurement satisfies never;
  }
}
