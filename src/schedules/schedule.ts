import { Cron } from 'croner';
import { formatDuration, parseDuration } from '../util/duration';

/**
 * When a recurring piece of work runs, as every schedule of the service reads it (a connection's
 * syncs, a workspace's transforms, its lake maintenance): `every <duration>`, or a 5-field cron in UTC.
 */
export type Schedule = { kind: 'every'; text: string; every: string; everyMs: number } | { kind: 'cron'; text: string; cron: string };

/** Fields of the cron subset every reader of it (croner here, Temporal's server) takes alike: numbers, three-letter names, `*`, ranges, lists, steps. */
const cronValue = '(\\d+|[A-Za-z]{3})';
const cronPart = `(\\*|${cronValue}(-${cronValue})?)(\\/\\d+)?`;
const cronField = new RegExp(`^${cronPart}(,${cronPart})*$`);
const fieldNames = ['minute', 'hour', 'day of month', 'month', 'day of week'];
/** Runs looked at to find the shortest gap of a cron (a minute-level cron repeats within a day, a calendar one within years). */
const gapSample = 64;

/**
 * Parses a schedule: `every 15m` (a duration such as 90s, 15m, 6h or 1d) or a 5-field cron read in
 * UTC (`0 9 * * MON`: lists, ranges, steps, month and weekday names, 0 or 7 for Sunday; the day of
 * month and the day of week match either, as in Vixie cron). A cron that never fires (`0 0 31 2 *`)
 * or any schedule that fires more often than `minimumIntervalMs` is refused with a message saying why.
 */
export function parseSchedule(text: string, options: { minimumIntervalMs: number }): Schedule | { problem: string } {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const every = /^every (\S+)$/i.exec(trimmed);
  if (every) {
    const ms = parseDuration(every[1]!);
    if (ms === undefined || ms <= 0 || every[1]!.endsWith('ms')) return { problem: '`every` takes a duration such as 30s, 15m, 6h or 1d' };
    if (ms < options.minimumIntervalMs) return { problem: `The shortest interval allowed is ${formatDuration(options.minimumIntervalMs)}` };
    return { kind: 'every', text: `every ${every[1]!}`, every: every[1]!, everyMs: ms };
  }
  const fields = trimmed.split(' ');
  if (fields.length !== 5)
    return { problem: 'A schedule is `every <duration>` or a cron expression of 5 fields (minute hour day-of-month month day-of-week), in UTC' };
  const odd = fields.findIndex((field) => !cronField.test(field));
  if (odd >= 0) return { problem: `Cron field ${odd + 1} (${fieldNames[odd]}): "${fields[odd]}" is not a value, name, range, list or step` };
  let cron: Cron;
  try {
    cron = new Cron(trimmed, { timezone: 'UTC', paused: true, mode: '5-part', domAndDow: false });
  } catch (error) {
    return { problem: `Not a valid cron expression: ${error instanceof Error ? error.message : String(error)}` };
  }
  const runs = cron.nextRuns(gapSample, new Date(Date.UTC(2000, 0, 1)));
  if (runs.length === 0) return { problem: `The cron expression "${trimmed}" never fires (no such date)` };
  const gap = Math.min(...runs.slice(1).map((run, index) => run.getTime() - runs[index]!.getTime()));
  if (gap < options.minimumIntervalMs)
    return { problem: `The cron expression fires every ${formatDuration(gap)}; the shortest interval allowed is ${formatDuration(options.minimumIntervalMs)}` };
  return { kind: 'cron', text: trimmed, cron: trimmed };
}

/** The schedule's next `count` run times after `from` (Temporal aligns intervals to the Unix epoch). */
export function nextRuns(schedule: Schedule, from: Date, count: number): Date[] {
  if (schedule.kind === 'every') {
    const first = (Math.floor(from.getTime() / schedule.everyMs) + 1) * schedule.everyMs;
    return Array.from({ length: count }, (_, index) => new Date(first + index * schedule.everyMs));
  }
  return new Cron(schedule.cron, { timezone: 'UTC', paused: true, mode: '5-part', domAndDow: false }).nextRuns(count, from);
}

/**
 * The cron as Temporal's schedule takes it: when both the day of month and the day of week are
 * restricted, one expression for each, so that they match either (their union), as here, whichever
 * way Temporal reads a day field pair.
 */
export function temporalCronExpressions(cron: string): string[] {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = cron.trim().split(/\s+/);
  if (dayOfMonth === '*' || dayOfWeek === '*') return [cron.trim()];
  return [`${minute} ${hour} ${dayOfMonth} ${month} *`, `${minute} ${hour} * ${month} ${dayOfWeek}`];
}
