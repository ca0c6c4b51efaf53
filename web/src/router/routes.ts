import type { ComponentType } from 'preact';
import { paths, type PathName } from './paths';

/** What a room receives: the parameters of its address and the query string. */
export interface RoomProps {
  params: Record<string, string>;
  search: URLSearchParams;
}

export type Room = ComponentType<RoomProps>;

export interface Route {
  name: PathName | 'workspace';
  pattern: string;
  /** Who may open it: anyone, only someone signed out (login, sign-up), or someone signed in. */
  access: 'anyone' | 'signed-out' | 'signed-in';
  /** The room's module, loaded when the room is first opened (each is a chunk of its own). */
  load: () => Promise<Room>;
}

const route = (name: PathName, access: Route['access'], load: () => Promise<Room>): Route => ({ name, pattern: paths[name], access, load });

/**
 * The console's rooms. Part of the list is what e-mails and redirects of the service link to
 * (verify-email, reset-password, signup?email=, connections, billing); the rest is the console's own.
 */
export const routes: Route[] = [
  route('home', 'signed-in', () => import('../rooms/workspaces/home').then((m) => m.Home)),
  route('login', 'signed-out', () => import('../rooms/auth/login').then((m) => m.Login)),
  route('signup', 'signed-out', () => import('../rooms/auth/signup').then((m) => m.Signup)),
  route('waitlist', 'signed-out', () => import('../rooms/auth/signup').then((m) => m.Waitlist)),
  route('forgotPassword', 'anyone', () => import('../rooms/auth/forgot-password').then((m) => m.ForgotPassword)),
  route('resetPassword', 'anyone', () => import('../rooms/auth/reset-password').then((m) => m.ResetPassword)),
  route('verifyEmail', 'anyone', () => import('../rooms/auth/verify-email').then((m) => m.VerifyEmail)),
  route('account', 'signed-in', () => import('../rooms/account/account').then((m) => m.Account)),
  route('apiKeys', 'signed-in', () => import('../rooms/account/api-keys').then((m) => m.ApiKeys)),
  route('workspaces', 'signed-in', () => import('../rooms/workspaces/home').then((m) => m.Home)),
  route('newWorkspace', 'signed-in', () => import('../rooms/workspaces/new-workspace').then((m) => m.NewWorkspace)),
  { name: 'workspace', pattern: '/workspaces/:workspaceId', access: 'signed-in', load: () => import('../rooms/workspaces/home').then((m) => m.OpenWorkspace) },
  route('workbench', 'signed-in', () => import('../rooms/workbench/workbench').then((m) => m.Workbench)),
  route('tables', 'signed-in', () => import('../rooms/tables/table-browser').then((m) => m.TableBrowser)),
  route('table', 'signed-in', () => import('../rooms/tables/table-detail').then((m) => m.TableDetail)),
  route('settings', 'signed-in', () => import('../rooms/workspaces/settings').then((m) => m.Settings)),
  route('billing', 'signed-in', () => import('../rooms/billing/billing').then((m) => m.Billing)),
  route('usage', 'signed-in', () => import('../rooms/usage/usage').then((m) => m.Usage)),
  route('workspaceConnections', 'signed-in', () => import('../rooms/connections/connection-list').then((m) => m.ConnectionList)),
  route('newConnection', 'signed-in', () => import('../rooms/connections/new-connection').then((m) => m.NewConnection)),
  route('workspaceConnection', 'signed-in', () => import('../rooms/connections/connection-detail').then((m) => m.ConnectionDetail)),
  route('transforms', 'signed-in', () => import('../rooms/transforms/transforms').then((m) => m.Transforms)),
  route('newTransform', 'signed-in', () => import('../rooms/transforms/transform').then((m) => m.NewTransform)),
  route('transform', 'signed-in', () => import('../rooms/transforms/transform').then((m) => m.TransformRoom)),
  route('transformRun', 'signed-in', () => import('../rooms/transforms/dag-run').then((m) => m.DagRunRoom)),
  route('savedQueries', 'signed-in', () => import('../rooms/sharing/saved-queries').then((m) => m.SavedQueries)),
  route('newSavedQuery', 'signed-in', () => import('../rooms/sharing/saved-queries').then((m) => m.NewSavedQuery)),
  route('savedQuery', 'signed-in', () => import('../rooms/sharing/saved-queries').then((m) => m.SavedQueryRoom)),
  route('charts', 'signed-in', () => import('../rooms/sharing/chart-and-page-lists').then((m) => m.Charts)),
  route('newChart', 'signed-in', () => import('../rooms/sharing/chart-builder').then((m) => m.NewChart)),
  route('chart', 'signed-in', () => import('../rooms/sharing/chart-builder').then((m) => m.ChartRoom)),
  route('pages', 'signed-in', () => import('../rooms/sharing/chart-and-page-lists').then((m) => m.Pages)),
  route('newPage', 'signed-in', () => import('../rooms/sharing/page-editor').then((m) => m.NewPage)),
  route('page', 'signed-in', () => import('../rooms/sharing/page-editor').then((m) => m.PageRoom)),
  route('connections', 'signed-in', () => import('../rooms/connections/connection-return').then((m) => m.ConnectionsReturn)),
  route('connection', 'signed-in', () => import('../rooms/connections/connection-return').then((m) => m.ConnectionReturn)),
];
