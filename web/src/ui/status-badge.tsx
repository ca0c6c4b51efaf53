/** States whose word alone would read oddly. */
const labels: Record<string, string> = { needs_reauth: 'needs re-authorization' };

/** A state as a small label (pending, running, succeeded, failed, skipped, active, paused…), coloured by the style sheet. */
export function StatusBadge({ status, label }: { status: string | null | undefined; label?: string }) {
  const state = status ?? 'none';
  return <span class={`badge badge-${state}`}>{label ?? labels[state] ?? state.replace(/_/g, ' ')}</span>;
}
