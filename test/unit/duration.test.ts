import { expect, test } from 'bun:test';
import { formatDuration, parseDuration } from '../../src/util/duration';

test('durations parse from and format to their largest exact unit', () => {
  expect(parseDuration('30d')).toBe(2_592_000_000);
  expect(parseDuration('15m')).toBe(900_000);
  expect(parseDuration('500ms')).toBe(500);
  expect(parseDuration('250')).toBe(250);
  expect(parseDuration('1.5h')).toBeUndefined();
  expect(parseDuration('soon')).toBeUndefined();
  expect(formatDuration(2_592_000_000)).toBe('30d');
  expect(formatDuration(90_000)).toBe('90s');
  expect(formatDuration(1_500)).toBe('1500ms');
});
