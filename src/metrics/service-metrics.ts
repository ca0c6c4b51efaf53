import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the engine reports about itself when scraped: instances open, statements running and queued. */
export interface EngineLoad {
  instances(): Record<string, number>;
  statements(): { running: number; queued: number };
}

/**
 * The service's metrics in the Prometheus text format. Each feature records into the metric that
 * concerns it through a small method here; what the engine and the worker know is read when scraped.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'oxbow_http_requests_total', help: 'HTTP requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers: [this.registry] });
  private readonly latency = new Histogram({
    name: 'oxbow_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly queries = new Counter({ name: 'oxbow_queries_total', help: 'Queries counted, by kind (query, execute, job…) and outcome (succeeded or the error code)', labelNames: ['kind', 'outcome'], registers: [this.registry] });
  private readonly scanned = new Counter({ name: 'oxbow_query_bytes_scanned_total', help: 'Bytes the queries scanned, by kind', labelNames: ['kind'], registers: [this.registry] });
  private readonly refusals = new Counter({ name: 'oxbow_refusals_total', help: 'Requests refused to protect the service, by code (RATE_LIMITED, CONCURRENCY_LIMITED, ENGINE_BUSY…)', labelNames: ['code'], registers: [this.registry] });
  private readonly runs = new Counter({ name: 'oxbow_durable_runs_total', help: 'Durable runs ended, by kind (query_job, sync, transform_run…) and status', labelNames: ['kind', 'status'], registers: [this.registry] });

  /** Reads the engine's load whenever the metrics are scraped. */
  watchEngine(engine: EngineLoad): void {
    new Gauge({
      name: 'oxbow_engine_instances',
      help: 'Workspace engine instances open in this process, by lane',
      labelNames: ['lane'],
      registers: [this.registry],
      collect() {
        for (const [lane, count] of Object.entries(engine.instances())) this.set({ lane }, count);
      },
    });
    new Gauge({
      name: 'oxbow_engine_statements',
      help: "Tenants' statements in this process, running or waiting for a slot",
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const { running, queued } = engine.statements();
        this.set({ state: 'running' }, running);
        this.set({ state: 'queued' }, queued);
      },
    });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  query(kind: string, outcome: string, bytesScanned: number): void {
    this.queries.inc({ kind, outcome });
    if (bytesScanned > 0) this.scanned.inc({ kind }, bytesScanned);
  }

  refused(code: string): void {
    this.refusals.inc({ code });
  }

  runEnded(kind: string, status: string): void {
    this.runs.inc({ kind, status });
  }
}
