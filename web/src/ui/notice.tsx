import type { ComponentChildren } from 'preact';
import { ApiError, messageOf } from '../api/errors';

type Kind = 'error' | 'success' | 'info' | 'warning';

/** A message in the flow of a room; errors are announced at once, the rest politely. */
export function Notice({ kind, children }: { kind: Kind; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** An error from the service with its hint, or nothing. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const hint = error instanceof ApiError ? error.hint : undefined;
  return (
    <Notice kind="error">
      <p>{messageOf(error)}</p>
      {hint ? <p class="hint">{hint}</p> : null}
    </Notice>
  );
}

/** Said while something loads; announced once. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}
