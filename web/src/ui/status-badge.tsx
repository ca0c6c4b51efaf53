/** A state as a small label (pending, running, succeeded, failed, skipped, active, paused…), coloured by the style sheet. */
export function StatusBadge({ status, label }: { status: string | null | undefined; label?: string }) {
  const state = status ?? 'none';
  return <span class={`badge badge-${state}`}>{label ?? state.replace(/_/g, ' ')}</span>;
}
