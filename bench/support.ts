import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const startedAt = performance.now();
  const value = await work();
  return { ms: performance.now() - startedAt, value };
}

/** Prints a markdown table and keeps the numbers as JSON next to the benchmarks. */
export function report(name: string, rows: Record<string, string | number>[], extra: Record<string, unknown> = {}): void {
  const headers = Object.keys(rows[0] ?? {});
  const lines = [
    `| ${headers.join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${headers.map((header) => row[header]).join(' | ')} |`),
  ];
  console.log(lines.join('\n'));
  const dir = join(import.meta.dir, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ name, measured_at: new Date().toISOString(), machine: machine(), rows, ...extra }, null, 2)}\n`);
}

function machine(): string {
  const cpus = navigator.hardwareConcurrency;
  return `${cpus} cores, Bun ${Bun.version}`;
}
