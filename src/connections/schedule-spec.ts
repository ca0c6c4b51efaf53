import { parseDuration } from '../util/duration';

/** A connection's schedule as Temporal takes it: an interval, or a 5-field cron read in UTC. */
export type SyncSchedule = { every: string; everyMs: number } | { cron: string };

const fieldBounds: [number, number][] = [
  [0, 59], // minute
  [0, 23], // hour
  [1, 31], // day of month
  [1, 12], // month
  [0, 7], // day of week (0 and 7 are Sunday)
];
const monthNames = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const dayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/**
 * `every <duration>` (`every 15m`, `every 1h`, `every 90s`, at least `minimumMs`) or a 5-field cron
 * (minute hour day-of-month month day-of-week, in UTC; lists, ranges, steps and JAN…/SUN… names).
 * Returns the schedule or a message saying what is wrong.
 */
export function parseSyncSchedule(text: string, minimumMs: number): SyncSchedule | { problem: string } {
  const trimmed = text.trim();
  const every = /^every\s+(\S+)$/i.exec(trimmed);
  if (every) {
    const ms = parseDuration(every[1]!);
    if (ms === undefined || ms <= 0 || every[1]!.endsWith('ms')) return { problem: 'every takes a duration such as 30s, 15m, 1h or 1d' };
    if (ms < minimumMs) return { problem: `The shortest schedule allowed is every ${Math.ceil(minimumMs / 1000)}s` };
    return { every: every[1]!, everyMs: ms };
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5) return { problem: 'A schedule is "every <duration>" or a cron expression of 5 fields (minute hour day month weekday), in UTC' };
  for (const [index, field] of fields.entries()) {
    const problem = cronFieldProblem(field, fieldBounds[index]!, index === 3 ? monthNames : index === 4 ? dayNames : undefined);
    if (problem) return { problem: `Cron field ${index + 1} (${['minute', 'hour', 'day of month', 'month', 'day of week'][index]}): ${problem}` };
  }
  return { cron: fields.join(' ') };
}

function cronFieldProblem(field: string, [low, high]: [number, number], names: string[] | undefined): string | undefined {
  for (const part of field.split(',')) {
    const match = /^(\*|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d+))?$/.exec(part);
    if (!match) return `"${part}" is not a value, range, list or step`;
    if (match[2] !== undefined && Number(match[2]) < 1) return 'a step must be at least 1';
    if (match[1] === '*') continue;
    for (const value of match[1]!.split('-')) {
      const number = /^\d+$/.test(value) ? Number(value) : nameValue(value, names);
      if (!Number.isInteger(number) || number < low || number > high) return `"${value}" is outside ${low}–${high}`;
    }
  }
  return undefined;
}

/** A month or weekday name as its number (JAN is 1, SUN is 0); NaN for anything else. */
function nameValue(value: string, names: string[] | undefined): number {
  const index = names ? names.indexOf(value.toUpperCase()) : -1;
  if (index < 0) return Number.NaN;
  return names === monthNames ? index + 1 : index;
}
