import { RequestValidationError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { formatDuration, parseDuration } from '../util/duration';
import { deleteSchedule, findSchedule, upsertSchedule } from './transform-queries';
import type { TransformSchedules } from './transform-workflows';

export interface DagScheduleView {
  schedule: string | null;
  updated_at: string | null;
}

/** The shortest interval a DAG schedule takes: each run reads and rewrites tables. */
const minimumEveryMs = 60_000;

/** One cron field: `*`, a number, a range, a list, each with an optional step. */
const cronField = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;

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
    return { schedule: row?.schedule ?? null, updated_at: row?.updated_at ?? null };
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

function normalized(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const every = /^every (\S+)$/i.exec(trimmed);
  if (every) {
    const ms = parseDuration(every[1]!);
    if (ms === undefined) throw invalid('`every` takes a duration such as 30m, 6h or 1d');
    if (ms < minimumEveryMs) throw invalid('A DAG runs at most once a minute');
    return `every ${formatDuration(ms)}`;
  }
  const fields = trimmed.split(' ');
  if (fields.length !== 5 || !fields.every((field) => cronField.test(field))) throw invalid('Write a 5-field cron expression in UTC (minute hour day month weekday) or `every <duration>`');
  return trimmed;
}

function invalid(message: string): RequestValidationError {
  return RequestValidationError.at(['body', 'schedule'], message);
}
