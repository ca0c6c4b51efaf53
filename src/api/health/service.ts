export type HealthProbe = () => Promise<void>;

export interface DependencyHealth {
  status: 'ok' | 'down';
  latency_ms: number;
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  checks: Record<string, DependencyHealth>;
}

const healthProbeTimeoutMs = 3_000;

/** Runs every probe in parallel, each bounded by a timeout, and reports which dependency is down. */
export async function checkHealth(probes: Record<string, HealthProbe>): Promise<HealthReport> {
  const entries = await Promise.all(Object.entries(probes).map(async ([name, probe]) => [name, await runProbe(probe, healthProbeTimeoutMs)] as const));
  const checks = Object.fromEntries(entries);
  return { status: entries.every(([, check]) => check.status === 'ok') ? 'ok' : 'degraded', checks };
}

/** One probe, bounded by a timeout: how long it took, and the first line of what went wrong. */
export async function runProbe(probe: HealthProbe, timeoutMs: number): Promise<DependencyHealth> {
  const startedAt = performance.now();
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { status: 'ok', latency_ms: elapsed(startedAt) };
  } catch (error) {
    // Only the first line: enough to tell an operator what broke, never a stack or a connection string.
    const message = error instanceof Error ? error.message.split('\n')[0]!.replace(/\/\/[^@/\s]*@/g, '//***@') : 'unreachable';
    return { status: 'down', latency_ms: elapsed(startedAt), error: message };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 100) / 100;
}
