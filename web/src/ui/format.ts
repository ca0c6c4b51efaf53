const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const integers = new Intl.NumberFormat('en');
export const formatCount = (value: number | null | undefined) => (value === null || value === undefined ? '—' : integers.format(value));

export function formatEuros(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `€${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(2)}`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

const dateTimes = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
export const formatTime = (iso: string | null | undefined) => (iso ? `${dateTimes.format(new Date(iso))} UTC` : '—');

/**
 * A snapshot's time as the service gives it, to the microsecond, in UTC: typed or pasted into
 * `FOR SYSTEM_TIME AS OF`, it reads that snapshot (a time shown to the second would fall before it).
 */
export const formatSnapshotTime = (iso: string | null | undefined) => (iso ? `${iso.replace('T', ' ').replace(/Z$/, '')} UTC` : '—');
