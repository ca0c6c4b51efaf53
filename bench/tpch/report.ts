import type { TpchQuery } from './generate';
import type { Measurement } from './measure';
import { differenceOf } from './results';

export interface EngineMeasurements {
  raw: Map<number, Measurement>;
  ducklake: Map<number, Measurement>;
  oxbow: Map<number, Measurement>;
  /** Absent in the variants measured without Postgres. */
  postgres?: Map<number, Measurement>;
}

export interface TpchSummary {
  rows: Record<string, string>[];
  /** Results that differ from raw DuckDB's, as `Qn engine: what`. */
  differences: string[];
  ducklakeRatio: number;
  oxbowRatio: number;
  /** Oxbow over DuckLake direct: what the service adds on top of the lakehouse format. */
  serviceRatio: number;
  postgresRatio: number;
  /** The Postgres ratio counts each timeout at the timeout, so it is a lower bound when any timed out. */
  postgresTimeouts: number;
}

/** Per query: each engine's median, the ratios between them and whether the results agree. */
export function summarize(queries: TpchQuery[], measured: EngineMeasurements, postgresTimeoutMs: number): TpchSummary {
  const ducklakeRatios: number[] = [];
  const oxbowRatios: number[] = [];
  const serviceRatios: number[] = [];
  const postgresRatios: number[] = [];
  const differences: string[] = [];
  let postgresTimeouts = 0;
  const rows = queries.map(({ nr }) => {
    const raw = measured.raw.get(nr)!;
    const ducklake = measured.ducklake.get(nr)!;
    const oxbow = measured.oxbow.get(nr)!;
    const postgres: Measurement = measured.postgres?.get(nr) ?? { kind: 'failed', error: 'not measured' };
    const ducklakeRatio = ratio(ducklake, raw);
    const oxbowRatio = ratio(oxbow, raw);
    const serviceRatio = ratio(oxbow, ducklake);
    const postgresRatio = ratio(postgres, raw, postgresTimeoutMs);
    if (ducklakeRatio !== undefined) ducklakeRatios.push(ducklakeRatio);
    if (oxbowRatio !== undefined) oxbowRatios.push(oxbowRatio);
    if (serviceRatio !== undefined) serviceRatios.push(serviceRatio);
    if (postgresRatio !== undefined) postgresRatios.push(postgresRatio);
    if (postgres.kind === 'timeout') postgresTimeouts += 1;
    const differing = [
      difference('DuckLake direct', ducklake, raw),
      difference('Oxbow', oxbow, raw),
      measured.postgres && difference('Postgres', postgres, raw),
    ].filter((text) => text !== undefined);
    differences.push(...differing.map((text) => `Q${nr} ${text}`));
    const row: Record<string, string> = {
      query: `Q${nr}`,
      'raw DuckDB ms': cell(raw, postgresTimeoutMs),
      'DuckLake ms': cell(ducklake, postgresTimeoutMs),
      'Oxbow ms': cell(oxbow, postgresTimeoutMs),
      'Postgres ms': cell(postgres, postgresTimeoutMs),
      'DuckLake ÷ raw': ducklakeRatio?.toFixed(2) ?? '',
      'Oxbow ÷ DuckLake': serviceRatio?.toFixed(2) ?? '',
      'Oxbow ÷ raw': oxbowRatio?.toFixed(2) ?? '',
      'Postgres ÷ raw': postgresRatio === undefined ? '' : `${postgres.kind === 'timeout' ? '> ' : ''}${postgresRatio.toFixed(1)}`,
      results: differing.length ? 'differ' : 'same',
    };
    if (!measured.postgres) {
      delete row['Postgres ms'];
      delete row['Postgres ÷ raw'];
    }
    return row;
  });
  return {
    rows,
    differences,
    ducklakeRatio: geometricMean(ducklakeRatios),
    oxbowRatio: geometricMean(oxbowRatios),
    serviceRatio: geometricMean(serviceRatios),
    postgresRatio: geometricMean(postgresRatios),
    postgresTimeouts,
  };
}

/** Every timed run per query and engine, for the JSON record. */
export function runsOf(queries: TpchQuery[], measured: EngineMeasurements): Record<string, Partial<Record<keyof EngineMeasurements, number[] | string>>> {
  const runs = (measurement: Measurement) => (measurement.kind === 'timed' ? measurement.runsMs.map((ms) => Math.round(ms * 10) / 10) : measurement.kind);
  return Object.fromEntries(
    queries.map(({ nr }) => [
      `Q${nr}`,
      {
        raw: runs(measured.raw.get(nr)!),
        ducklake: runs(measured.ducklake.get(nr)!),
        oxbow: runs(measured.oxbow.get(nr)!),
        ...(measured.postgres && { postgres: runs(measured.postgres.get(nr)!) }),
      },
    ]),
  );
}

function cell(measurement: Measurement, timeoutMs: number): string {
  switch (measurement.kind) {
    case 'timed': {
      const ms = measurement.medianMs;
      const text = ms < 100 ? ms.toFixed(1) : String(Math.round(ms));
      return measurement.runsMs.length === 1 ? `${text} (1 run)` : text;
    }
    case 'timeout':
      return `timeout (> ${timeoutMs / 1000} s)`;
    case 'failed':
      return 'failed';
    default:
      return measurement satisfies never;
  }
}

/** One engine's median over another's; a timeout counts as the timeout itself (a lower bound). */
function ratio(measurement: Measurement, base: Measurement, timeoutMs?: number): number | undefined {
  if (base.kind !== 'timed') return undefined;
  if (measurement.kind === 'timed') return measurement.medianMs / base.medianMs;
  if (measurement.kind === 'timeout' && timeoutMs !== undefined) return timeoutMs / base.medianMs;
  return undefined;
}

function difference(engine: string, measurement: Measurement, raw: Measurement): string | undefined {
  if (measurement.kind === 'failed') return `${engine} failed: ${measurement.error}`;
  if (measurement.kind !== 'timed' || raw.kind !== 'timed') return undefined;
  const what = differenceOf(raw.rows, measurement.rows);
  return what && `${engine}: ${what}`;
}

function geometricMean(values: number[]): number {
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}
