const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `500ms`, `90s`, `15m`, `12h` or `30d` (a bare number means milliseconds). */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'ms') as keyof typeof unitMs;
  return amount * unitMs[unit];
}

/** The inverse, for messages and Temporal APIs: the largest exact unit. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= unitMs[unit] && ms % unitMs[unit] === 0) return `${ms / unitMs[unit]}${unit}`;
  }
  return `${ms}ms`;
}
