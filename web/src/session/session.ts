import { api, unwrap, type TokenSource } from '../api/client';
import type { components } from '../api/schema';
import { Store } from '../ui/store';

export type User = components['schemas']['UserResponse'];
export type SessionState = { status: 'starting' } | { status: 'signed-out'; reason?: string } | { status: 'signed-in'; user: User };

/** Sent on every cookie endpoint: a page of another site cannot send it (see the service's console-cookie.ts). */
const consoleHeader = { 'X-Oxbow-Console': '1' } as const;
/** An access token this close to its expiry is renewed before use. */
const renewBeforeMs = 60_000;
/** Tabs of the console renew one at a time: the refresh cookie rotates on every use. */
const renewLock = 'oxbow-console-renew';

/**
 * The browser's session. The refresh token lives only in an HttpOnly cookie scoped to the console's
 * session endpoints, so no script here can read it; the access token lives in this object's memory
 * and dies with the tab. Other tabs hear of a logout through a broadcast channel.
 */
class Session implements TokenSource {
  readonly state = new Store<SessionState>({ status: 'starting' });
  private token: { value: string; expiresAt: number } | undefined;
  private renewal: Promise<string | undefined> | undefined;
  private readonly channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('oxbow-console-session') : undefined;

  constructor() {
    this.channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.data === 'signed-out') this.forget('You were signed out in another tab.');
    });
  }

  /** At page load: a session cookie, if the browser has one, gives a session without a password. */
  async start(): Promise<void> {
    if ((await this.renew()) === undefined) this.state.set({ status: 'signed-out' });
  }

  async logIn(email: string, password: string): Promise<void> {
    const pair = await unwrap(api.POST('/api/v1/auth/console/login', { params: { header: consoleHeader }, body: { email, password } }));
    this.keep(pair.access_token, pair.expires_in);
    await this.loadUser();
  }

  /** Ends this browser's session (or, with everywhere, every session of the account). */
  async logOut(everywhere = false): Promise<void> {
    try {
      if (everywhere) await unwrap(api.POST('/api/v1/auth/logout-everywhere'));
    } finally {
      await api.POST('/api/v1/auth/console/logout', { params: { header: consoleHeader } }).catch(() => undefined);
      this.channel?.postMessage('signed-out');
      this.forget();
    }
  }

  /** After the password changed or the account was deleted, the service already ended the session. */
  async ended(reason: string): Promise<void> {
    await api.POST('/api/v1/auth/console/logout', { params: { header: consoleHeader } }).catch(() => undefined);
    this.channel?.postMessage('signed-out');
    this.forget(reason);
  }

  async loadUser(): Promise<void> {
    const user = await unwrap(api.GET('/api/v1/auth/me'));
    this.state.set({ status: 'signed-in', user });
  }

  async accessToken(): Promise<string | undefined> {
    if (this.token && this.token.expiresAt - Date.now() > renewBeforeMs) return this.token.value;
    if (!this.token) return undefined;
    return this.renew();
  }

  async renewAfterRefusal(): Promise<string | undefined> {
    const token = await this.renew();
    if (!token) this.forget('Your session has ended. Sign in again.');
    return token;
  }

  /** One renewal at a time in this tab, and across tabs through a Web Lock where the browser has them. */
  private renew(): Promise<string | undefined> {
    this.renewal ??= (async () => {
      try {
        const exchange = () => this.exchangeCookie();
        return navigator.locks ? await navigator.locks.request(renewLock, exchange) : await exchange();
      } finally {
        this.renewal = undefined;
      }
    })();
    return this.renewal;
  }

  private async exchangeCookie(): Promise<string | undefined> {
    const { data, response } = await api.POST('/api/v1/auth/console/refresh', { params: { header: consoleHeader } });
    if (!response.ok || !data) return undefined;
    this.keep(data.access_token, data.expires_in);
    if (this.state.get().status !== 'signed-in') await this.loadUser();
    return data.access_token;
  }

  private keep(value: string, expiresInSeconds: number): void {
    this.token = { value, expiresAt: Date.now() + expiresInSeconds * 1000 };
  }

  private forget(reason?: string): void {
    this.token = undefined;
    this.state.set(reason ? { status: 'signed-out', reason } : { status: 'signed-out' });
  }
}

export const session = new Session();
