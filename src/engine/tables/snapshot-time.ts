/**
 * A snapshot's time as the service shows it: to the microsecond, as the catalog keeps it. Time travel
 * reads the latest snapshot at or before the time it is given, so a time cut to the millisecond (as a
 * JavaScript Date holds it) falls before its snapshot and reads the one before, or nothing; rounding up
 * instead could pass a later snapshot of the same millisecond. Every snapshot time the service prints
 * reads, given back to `FOR SYSTEM_TIME AS OF`, the snapshot it names.
 */
export function snapshotTimeSql(expression: string): string {
  return `epoch_us((${expression})::TIMESTAMPTZ)`;
}

/** The ISO 8601 text of a time `snapshotTimeSql` read (microseconds since the epoch), in UTC. */
export function isoMicroseconds(value: unknown): string {
  const microseconds = BigInt(value as bigint | number);
  const milliseconds = microseconds / 1000n - (microseconds % 1000n < 0n ? 1n : 0n);
  const rest = microseconds - milliseconds * 1000n;
  return `${new Date(Number(milliseconds)).toISOString().slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}
