import { runProbe, type DependencyHealth, type HealthProbe } from './service';

/** A dependency of this process: whether queries need it, and what stops working without it. */
export interface ReadinessDependency {
  probe: HealthProbe;
  /** Queries cannot be answered without it: when it is down the process is not ready. */
  required: boolean;
  /** What stops working while it is down (the whole API, or named features). */
  serves: string[];
}

export interface ReadinessCheck extends DependencyHealth {
  required: boolean;
  serves: string[];
}

export type ReadinessStatus = 'ready' | 'degraded' | 'not_ready' | 'draining';

export interface ReadinessReport {
  status: ReadinessStatus;
  /** Whether a load balancer should send this process requests: true when ready or degraded. */
  ready: boolean;
  checks: Record<string, ReadinessCheck>;
  /** The features that do not work right now, though queries do (from the optional dependencies that are down). */
  degraded: string[];
}

/**
 * Short enough for a load balancer's probe (Kubernetes waits 1 s by default), long enough that a busy
 * database is not taken for a dead one.
 */
const probeTimeoutMs = 900;
/** Probes are shared by callers within this window, so a burst of probes costs the dependencies one round. */
const reuseMs = 1_000;

/**
 * Whether this process can serve queries (`/readyz`): every required dependency answers, and the
 * process is not shutting down. An optional dependency that is down degrades the features it serves
 * without taking the process out of the load balancer.
 */
export class Readiness {
  private draining = false;
  private latest: { at: number; report: Promise<Omit<ReadinessReport, 'status' | 'ready'>> } | undefined;

  constructor(private readonly dependencies: Record<string, ReadinessDependency>) {}

  /** From now on the process reports itself not ready (a shutdown began); it never becomes ready again. */
  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async report(): Promise<ReadinessReport> {
    const now = performance.now();
    if (!this.latest || now - this.latest.at > reuseMs) this.latest = { at: now, report: this.probe() };
    const { checks, degraded } = await this.latest.report;
    const requiredDown = Object.values(checks).some((check) => check.required && check.status !== 'ok');
    const status: ReadinessStatus = this.draining ? 'draining' : requiredDown ? 'not_ready' : degraded.length ? 'degraded' : 'ready';
    return { status, ready: status === 'ready' || status === 'degraded', checks, degraded };
  }

  private async probe(): Promise<Omit<ReadinessReport, 'status' | 'ready'>> {
    const entries = await Promise.all(
      Object.entries(this.dependencies).map(async ([name, dependency]) => {
        const health = await runProbe(dependency.probe, probeTimeoutMs);
        return [name, { ...health, required: dependency.required, serves: dependency.serves }] as const;
      }),
    );
    const checks = Object.fromEntries(entries);
    const degraded = [...new Set(entries.flatMap(([, check]) => (check.status === 'ok' || check.required ? [] : check.serves)))].sort();
    return { checks, degraded };
  }
}
