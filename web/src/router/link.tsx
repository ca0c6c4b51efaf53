import type { ComponentChildren } from 'preact';
import { navigate } from './history';

type Props = { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined };

/** An ordinary link that the console follows itself (a modified click still opens a new tab). */
export function Link({ href, children, ...rest }: Props) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
