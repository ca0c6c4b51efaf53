import { AppError } from '../../errors/app-error';

/** The one cookie the console has: its refresh token. */
export const consoleCookieName = 'oxbow_console_refresh';
/** Only the console's session endpoints ever receive it. */
export const consoleCookiePath = '/api/v1/auth/console';
/** As long as the refresh token it carries lives (see auth/sessions.ts). */
const maxAgeSeconds = 30 * 24 * 3600;

export interface ConsoleCookieOptions {
  /** PUBLIC_BASE_URL and FRONTEND_URL: the origins the console is served from. */
  origins: string[];
  /** Behind a reverse proxy, X-Forwarded-Proto says whether the browser used HTTPS. */
  trustProxy: boolean;
}

/** Writing, reading and guarding the console's refresh-token cookie. */
export function consoleCookie(options: ConsoleCookieOptions) {
  const allowed = new Set(options.origins.map((url) => new URL(url).origin));
  const httpsByConfig = options.origins.some((url) => url.startsWith('https:'));
  const attributes = (request: Request | undefined) => {
    const secure = httpsByConfig || (request && isHttps(request, options.trustProxy));
    return `Path=${consoleCookiePath}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  };
  return {
    set: (token: string, request?: Request) => `${consoleCookieName}=${token}; ${attributes(request)}; Max-Age=${maxAgeSeconds}`,
    clear: (request?: Request) => `${consoleCookieName}=; ${attributes(request)}; Max-Age=0`,
    read(request: Request): string | undefined {
      for (const part of (request.headers.get('cookie') ?? '').split(';')) {
        const [name, ...value] = part.trim().split('=');
        if (name === consoleCookieName && value.length > 0) return value.join('=') || undefined;
      }
      return undefined;
    },
    /** Refuses a request another site's page made, whatever its cookie says. */
    assertSameSite(request: Request): void {
      const origin = request.headers.get('origin');
      const site = request.headers.get('sec-fetch-site');
      const ownOrigin = new URL(request.url).origin;
      const foreignOrigin = origin !== null && origin !== ownOrigin && !allowed.has(origin);
      const foreignSite = site !== null && site !== 'same-origin' && site !== 'none';
      if (foreignOrigin || foreignSite) {
        throw new AppError('ORIGIN_NOT_ALLOWED', 'The console session endpoints answer only the console itself', {
          hint: `Open the console at ${[...allowed].join(' or ')}.`,
        });
      }
    },
  };
}

function isHttps(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}
