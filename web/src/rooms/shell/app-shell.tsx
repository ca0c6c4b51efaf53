import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../router/link';
import { navigate, useLocation } from '../../router/history';
import { pathTo, paths } from '../../router/paths';
import { session } from '../../session/session';
import { rememberWorkspace, useWorkspaces } from '../../session/workspaces';
import { useStore } from '../../ui/store';
import { workspaceNav } from './workspace-nav';

/** The frame of the signed-in rooms: skip link, header with the workspace switcher, the rooms of the workspace, the account. */
export function AppShell({ children }: { children: ComponentChildren }) {
  const location = useLocation();
  const workspaceId = currentWorkspaceId(location.pathname);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    if (workspaceId) rememberWorkspace(workspaceId);
  }, [workspaceId]);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href={pathTo('home')} class="brand">
          Oxbow
        </Link>
        <WorkspaceSwitcher current={workspaceId} />
        <button type="button" class="button ghost menu-toggle" aria-expanded={menuOpen} aria-controls="primary-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="primary-nav" class={`primary-nav ${menuOpen ? 'open' : ''}`} aria-label="Console">
          <ul>
            {workspaceId
              ? workspaceNav.map((item) => (
                  <li key={item.path}>
                    <NavLink href={pathTo(item.path, { workspaceId })} current={isCurrent(item.path, location.pathname)}>
                      {item.label}
                    </NavLink>
                  </li>
                ))
              : null}
            <li>
              <NavLink href={pathTo('apiKeys')} current={location.pathname === paths.apiKeys}>
                API keys
              </NavLink>
            </li>
            <li>
              <NavLink href={pathTo('account')} current={location.pathname === paths.account}>
                Account
              </NavLink>
            </li>
            <li>
              <button type="button" class="button ghost" onClick={() => void session.logOut().then(() => navigate(pathTo('login')))}>
                Log out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** The frame of the rooms before signing in. */
export function AuthLayout({ children }: { children: ComponentChildren }) {
  return (
    <div class="auth-layout">
      <header class="auth-brand">
        <span class="brand">Oxbow</span>
      </header>
      <main id="main" class="auth-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function NavLink({ href, current, children }: { href: string; current: boolean; children: ComponentChildren }) {
  return (
    <Link href={href} class="nav-link" aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** Switches to the same room of another workspace, or opens the list to create one. */
function WorkspaceSwitcher({ current }: { current: string | undefined }) {
  const { list } = useWorkspaces();
  const user = useStore(session.state);
  if (user.status !== 'signed-in') return null;
  const change = (event: Event) => {
    const id = (event.currentTarget as HTMLSelectElement).value;
    if (id === 'new') return navigate(pathTo('newWorkspace'));
    // The same room in the other workspace (a table of this one would not be there: its list instead).
    const room = workspaceNav.find((item) => isCurrent(item.path, window.location.pathname))?.path ?? 'workbench';
    navigate(pathTo(room, { workspaceId: id }));
  };
  return (
    <div class="switcher">
      <label for="workspace-switcher" class="visually-hidden">
        Workspace
      </label>
      <select id="workspace-switcher" value={current ?? ''} onChange={change}>
        {current ? null : <option value="">Choose a workspace</option>}
        {list.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
        <option value="new">+ New workspace…</option>
      </select>
    </div>
  );
}

function currentWorkspaceId(pathname: string): string | undefined {
  const match = /^\/workspaces\/([^/]+)/.exec(pathname);
  return match && match[1] !== 'new' ? decodeURIComponent(match[1]!) : undefined;
}

/** A room of the workspace is current at its address and at every address under it (a table of the tables, a connection of the connections). */
function isCurrent(name: (typeof workspaceNav)[number]['path'], pathname: string): boolean {
  const workspaceId = currentWorkspaceId(pathname);
  if (!workspaceId) return false;
  const base = pathTo(name, { workspaceId });
  return pathname === base || pathname.startsWith(`${base}/`);
}
