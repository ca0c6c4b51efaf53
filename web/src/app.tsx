import { useEffect, useState } from 'preact/hooks';
import { navigate, useLocation } from './router/history';
import { matchPath, pathTo } from './router/paths';
import { routes, type Room, type Route } from './router/routes';
import { session } from './session/session';
import { workspaces } from './session/workspaces';
import { useStore } from './ui/store';
import { Loading, Notice } from './ui/notice';
import { AppShell, AuthLayout } from './rooms/shell/app-shell';
import { NotFound } from './rooms/shell/not-found';

/** Rooms already loaded, by route: opening one again needs no new request. */
const loaded = new Map<Route, Room>();

/** The console: the session decides which rooms open, the address which room is shown. */
export function App() {
  const state = useStore(session.state);
  const location = useLocation();
  const found = findRoute(location.pathname);
  const [, rerender] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(undefined);

  const redirect = found && redirectFor(found.route, state.status, location.pathname + window.location.search, location.search);
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  useEffect(() => {
    if (state.status === 'signed-out') workspaces.set({ list: [], loaded: false });
  }, [state.status]);
  useEffect(() => {
    if (!found || loaded.has(found.route)) return;
    setLoadError(undefined);
    found.route
      .load()
      .then((room) => {
        loaded.set(found.route, room);
        rerender((n) => n + 1);
      })
      .catch(setLoadError);
  }, [found?.route]);

  if (state.status === 'starting')
    return (
      <AuthLayout>
        <Loading label="Opening the console…" />
      </AuthLayout>
    );
  const Layout = state.status === 'signed-in' ? AppShell : AuthLayout;
  if (!found)
    return (
      <Layout>
        <NotFound />
      </Layout>
    );
  if (redirect)
    return (
      <Layout>
        <Loading />
      </Layout>
    );
  const Room = loaded.get(found.route);
  return (
    <Layout>
      {state.status === 'signed-out' && state.reason ? <Notice kind="info">{state.reason}</Notice> : null}
      {loadError ? <Notice kind="error">This part of the console could not be loaded. Reload the page to try again.</Notice> : null}
      {Room ? <Room params={found.params} search={location.search} /> : <Loading />}
    </Layout>
  );
}

function findRoute(pathname: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const params = matchPath(route.pattern, pathname);
    if (params) return { route, params };
  }
  return undefined;
}

/** Where a room sends someone who may not be in it: to log in first (and back), or on from the sign-in rooms. */
function redirectFor(route: Route, status: 'starting' | 'signed-in' | 'signed-out', here: string, search: URLSearchParams): string | undefined {
  if (status === 'starting') return undefined;
  if (route.access === 'signed-in' && status === 'signed-out') return pathTo('login', {}, { next: here });
  if (route.access === 'signed-out' && status === 'signed-in') return safeNext(search.get('next')) ?? pathTo('home');
  return undefined;
}

/** A `next` address only when it is one of the console's own (never another site). */
export function safeNext(next: string | null): string | undefined {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : undefined;
}
