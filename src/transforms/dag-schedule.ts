import { RequestValidationError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { nextRuns, parseSchedule } from '../schedules/schedule';
import { deleteSchedule, findSchedule, upsertSchedule } from './transform-queries';
import type { TransformSchedules } from './transform-workflows';

export interface DagScheduleView {
  schedule: string | null;
  /** The next times the schedule starts a run (UTC). */
  next_runs: string[];
  updated_at: string | null;
}

/** How many of the schedule's next run times an answer shows. */
const shownRuns = 3;

/** The shortest interval a DAG schedule takes: each run reads and rewrites tables. */
const minimumEveryMs = 60_000;

/**
 * A workspace's optional DAG schedule: all its transforms run on a 5-field cron in UTC or every
 * interval, as a Temporal Schedule; a run still going when the next is due skips that one. The
 * schedule is kept in the store too, which is what reads it.
 */
export class DagScheduleService {
  constructor(
    private readonly store: Store,
    private readonly schedules: TransformSchedules,
    private readonly clock: Clock,
  ) {}

  async get(workspaceId: string): Promise<DagScheduleView> {
    const row = await this.store.first(findSchedule, { workspace_id: workspaceId });
    const schedule = row ? parseSchedule(row.schedule, { minimumIntervalMs: 0 }) : undefined;
    const upcoming = schedule && !('problem' in schedule) ? nextRuns(schedule, this.clock.now(), shownRuns).map((run) => run.toISOString()) : [];
    return { schedule: row?.schedule ?? null, next_runs: upcoming, updated_at: row?.updated_at ?? null };
  }

  async put(workspaceId: string, text: string): Promise<DagScheduleView> {
    const schedule = normalized(text);
    await this.schedules.put(workspaceId, schedule);
    await this.store.run(upsertSchedule, { workspace_id: workspaceId, schedule, now: this.clock.now().toISOString() });
    return this.get(workspaceId);
  }

  async remove(workspaceId: string): Promise<void> {
    await this.schedules.remove(workspaceId);
    await this.store.run(deleteSchedule, { workspace_id: workspaceId });
  }
}

/** The schedule as stored and handed to Temporal, the same rules as every schedule of the service. */
function normalized(text: string): string {
  const schedule = parseSchedule(text, { minimumIntervalMs: minimumEveryMs });
  if ('problem' in schedule) throw RequestValidationError.at(['body', 'schedule'], schedule.problem);
  return schedule.text;
}
