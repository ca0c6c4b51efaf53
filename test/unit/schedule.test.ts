import { describe, expect, test } from 'bun:test';
import { nextRuns, parseSchedule, temporalCronExpressions } from '../../src/schedules/schedule';

const minute = 60_000;
const parsed = (text: string, minimumIntervalMs = minute) => parseSchedule(text, { minimumIntervalMs });
const runs = (text: string, from: string, count = 3) => {
  const schedule = parsed(text);
  if ('problem' in schedule) throw new Error(schedule.problem);
  return nextRuns(schedule, new Date(from), count).map((run) => run.toISOString());
};

describe('schedules', () => {
  test('cron with names, lists, ranges and steps, in UTC', () => {
    expect(runs('0 9 * * MON', '2024-01-01T09:00:00Z')).toEqual(['2024-01-08T09:00:00.000Z', '2024-01-15T09:00:00.000Z', '2024-01-22T09:00:00.000Z']);
    expect(runs('30 6 1,15 jan-mar *', '2024-02-20T00:00:00Z')).toEqual(['2024-03-01T06:30:00.000Z', '2024-03-15T06:30:00.000Z', '2025-01-01T06:30:00.000Z']);
    expect(runs('*/20 * * * *', '2024-01-01T00:05:00Z')).toEqual(['2024-01-01T00:20:00.000Z', '2024-01-01T00:40:00.000Z', '2024-01-01T01:00:00.000Z']);
    expect(runs('0 0 * * 7', '2024-01-01T00:00:00Z', 1)).toEqual(['2024-01-07T00:00:00.000Z']);
  });

  test('a day of month and a day of week both given match either, and Temporal gets one expression for each', () => {
    expect(runs('0 12 13 * FRI', '2024-09-01T00:00:00Z', 4)).toEqual([
      '2024-09-06T12:00:00.000Z',
      '2024-09-13T12:00:00.000Z',
      '2024-09-20T12:00:00.000Z',
      '2024-09-27T12:00:00.000Z',
    ]);
    expect(temporalCronExpressions('0 12 13 * FRI')).toEqual(['0 12 13 * *', '0 12 * * FRI']);
    expect(temporalCronExpressions('0 9 * * MON')).toEqual(['0 9 * * MON']);
  });

  test('every <duration>, aligned to the epoch as Temporal aligns intervals', () => {
    expect(parsed('Every   15m')).toMatchObject({ kind: 'every', text: 'every 15m', everyMs: 15 * minute });
    expect(runs('every 15m', '2024-01-01T00:07:00Z', 2)).toEqual(['2024-01-01T00:15:00.000Z', '2024-01-01T00:30:00.000Z']);
  });

  test('refused: crons that never fire, that fire too often, malformed ones, and bad durations', () => {
    const problem = (text: string) => {
      const schedule = parsed(text);
      return 'problem' in schedule ? schedule.problem : undefined;
    };
    expect(problem('0 0 31 2 *')).toContain('never fires');
    expect(problem('0 0 30 2 *')).toContain('never fires');
    expect(problem('0 0 31 4,6,9,11 *')).toContain('never fires');
    expect(problem('* * * * *')).toBeUndefined();
    expect(parseSchedule('* * * * *', { minimumIntervalMs: 5 * minute })).toMatchObject({ problem: expect.stringContaining('every 1m') });
    expect(problem('every 30s')).toContain('shortest interval');
    expect(problem('0 9 * *')).toContain('5 fields');
    expect(problem('0 25 * * *')).toContain('Not a valid cron');
    expect(problem('0 0 L * *')).toContain('field 3');
    expect(problem('0 0 * * 5#2')).toContain('field 5');
    expect(problem('every soon')).toContain('duration');
    expect(problem('every 500ms')).toContain('duration');
  });
});
