import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  /** Shown under the title. */
  lead?: ComponentChildren;
  actions?: ComponentChildren;
  children: ComponentChildren;
}

/**
 * A room's frame: its title becomes the document's, and the heading takes the focus when the room
 * opens, so a screen reader announces where a link led and the keyboard starts from there.
 */
export function Page({ title, lead, actions, children }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Oxbow`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div class="page">
      <div class="page-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {lead ? <p class="lead">{lead}</p> : null}
        </div>
        {actions ? <div class="page-actions">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** A titled part of a room. */
export function Section({ title, id, children, actions }: { title: string; id?: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section class="section" aria-labelledby={headingId}>
      <div class="section-header">
        <h2 id={headingId}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
