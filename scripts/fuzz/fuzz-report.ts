import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The numbers of a run, from schemathesis' NDJSON event report and the service's own log: requests
 * sent, answers by status class, failures per check, and the service's 500s and unhandled errors.
 */
export async function summarize(reportDir: string, serviceLog: string | undefined): Promise<string> {
  const lines = [`[fuzz] summary`];
  const file = existsSync(reportDir) ? readdirSync(reportDir).find((name) => name.endsWith('.ndjson')) : undefined;
  if (file) {
    const statuses = new Map<string, number>();
    let requests = 0;
    for (const line of readFileSync(join(reportDir, file), 'utf8').split('\n')) {
      for (const match of line.matchAll(/"status_code":\s*(\d{3})/g)) {
        requests++;
        const bucket = `${match[1]![0]}xx`;
        statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
      }
    }
    lines.push(
      `[fuzz] responses recorded: ${requests} (${[...statuses]
        .sort()
        .map(([bucket, count]) => `${bucket} ${count}`)
        .join(', ')})`,
    );
  }
  if (serviceLog && existsSync(serviceLog)) {
    const log = readFileSync(serviceLog, 'utf8').split('\n');
    const served = log.filter((line) => line.includes('"msg":"request"')).length;
    const serverErrors = log.filter((line) => /"msg":"request".*"status":5\d\d/.test(line)).length;
    const unhandled = log.filter((line) => /"msg":"(unhandled|internal) error"/.test(line)).length;
    lines.push(`[fuzz] the service logged ${served} requests, ${serverErrors} answered 5xx, ${unhandled} unhandled or internal errors`);
  }
  return lines.join('\n');
}
