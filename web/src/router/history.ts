import { useEffect, useState } from 'preact/hooks';

export interface Location {
  pathname: string;
  search: URLSearchParams;
}

const listeners = new Set<() => void>();
const current = (): Location => ({ pathname: window.location.pathname, search: new URLSearchParams(window.location.search) });

window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** Moves to an address of the console without loading the page again. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
}

/** The current address; the component renders again when it changes. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return location;
}
