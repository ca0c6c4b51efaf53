import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the engine reports about itself when scraped: instances open, statements running and queued, memory held. */
export interface EngineLoad {
  instances(): Record<string, number>;
  statements(): { running: number; queued: number };
  /** Bytes DuckDB holds, by lane (interactive, background). */
  memory(): Promise<Record<string, number>>;
}

/** One task queue as Temporal sees it: how much waits, how long the oldest has waited, how many workers poll. */
export interface TaskQueueStat {
  /** The queue's role: `main` (workflows and bookkeeping), `query_jobs`, `syncs`. */
  queue: string;
  type: 'workflow' | 'activity';
  backlog: number;
  backlogAgeSeconds: number;
  pollers: number;
}

/** What this build is, for `oxbow_build_info`. */
export interface BuildInfo {
  version: string;
  runtime: string;
  duckdb: string;
}

/**
 * The service's metrics in the Prometheus text format. Each feature records into the metric that
 * concerns it through a small method here; what the engine and the worker know is read when scraped.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'oxbow_http_requests_total',
    help: 'HTTP requests answered, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'oxbow_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly queries = new Counter({
    name: 'oxbow_queries_total',
    help: 'Queries counted, by kind (query, execute, job…) and outcome (succeeded, cancelled, or the error code)',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  private readonly scanned = new Counter({
    name: 'oxbow_query_bytes_scanned_total',
    help: 'Bytes the queries scanned, by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'oxbow_refusals_total',
    help: 'Requests refused to protect the service, by code (RATE_LIMITED, CONCURRENCY_LIMITED, ENGINE_BUSY…)',
    labelNames: ['code'],
    registers: [this.registry],
  });
  private readonly runs = new Counter({
    name: 'oxbow_durable_runs_total',
    help: 'Durable runs ended, by kind (query_job, sync, transform_run…) and status',
    labelNames: ['kind', 'status'],
    registers: [this.registry],
  });

  constructor(build: BuildInfo) {
    // The process's own series (CPU, memory, file descriptors, event-loop lag, heap). Under Bun the heap
    // figures are JavaScriptCore's and the GC histogram stays empty: Bun reports no GC events.
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'oxbow_build_info',
      help: 'The running build: version, runtime and DuckDB (always 1)',
      labelNames: ['version', 'runtime', 'duckdb'],
      registers: [this.registry],
    }).set({ version: build.version, runtime: build.runtime, duckdb: build.duckdb }, 1);
  }

  /** Reads Temporal's view of the task queues whenever the metrics are scraped (undefined: Temporal did not answer). */
  watchTaskQueues(read: () => Promise<TaskQueueStat[] | undefined>): void {
    let latest: Promise<TaskQueueStat[] | undefined> | undefined;
    // One read per scrape serves the four gauges.
    const stats = () => (latest ??= read().finally(() => setTimeout(() => (latest = undefined), 1_000)));
    const labels = ['queue', 'type'];
    const gauge = (name: string, help: string, value: (stat: TaskQueueStat) => number) =>
      new Gauge({
        name,
        help,
        labelNames: labels,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const stat of (await stats()) ?? []) this.set({ queue: stat.queue, type: stat.type }, value(stat));
        },
      });
    gauge('oxbow_task_queue_backlog', 'Tasks waiting in a Temporal task queue (approximate, from Temporal)', (stat) => stat.backlog);
    gauge('oxbow_task_queue_backlog_age_seconds', 'How long the oldest waiting task of a task queue has waited', (stat) => stat.backlogAgeSeconds);
    gauge('oxbow_task_queue_pollers', 'Workers that polled a task queue recently (0: nobody takes its tasks)', (stat) => stat.pollers);
    new Gauge({
      name: 'oxbow_task_queue_stats_up',
      help: 'Whether Temporal answered the last read of the task queues (1) or not (0)',
      registers: [this.registry],
      async collect() {
        this.set((await stats()) ? 1 : 0);
      },
    });
  }

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
    new Gauge({
      name: 'oxbow_engine_memory_bytes',
      help: 'Memory the workspace engine instances of this process hold (DuckDB buffer manager), by lane',
      labelNames: ['lane'],
      registers: [this.registry],
      async collect() {
        for (const [lane, bytes] of Object.entries(await engine.memory())) this.set({ lane }, bytes);
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
