import { randomBytes, timingSafeEqual } from 'node:crypto';
import { CliError, exitCodes } from '../exit-codes';

export interface BrowserLogin {
  /** The page the person logs in on. */
  url: string;
  /** Resolves with the API key the service handed to the local callback, once its state matched. */
  key: Promise<string>;
  /** Stops listening once the answer to the browser has gone out. */
  stop(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui;margin:4rem auto;max-width:32rem"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * The browser half of `oxbow login`: a one-off listener on 127.0.0.1 and a random state. The service's
 * form (`/auth/cli-login`) redirects to `http://127.0.0.1:<port>/callback?key=…&state=…` after a
 * successful login; a callback whose state differs (compared in constant time) is refused and the
 * listener keeps waiting, so a page elsewhere cannot plant a key of its own.
 */
export function startBrowserLogin(serviceUrl: string, timeoutMs: number): BrowserLogin {
  const state = randomBytes(32).toString('base64url');
  let settle: { resolve: (key: string) => void; reject: (error: Error) => void } | undefined;
  const key = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== '/callback') return new Response('Not found', { status: 404 });
      const received = url.searchParams.get('state') ?? '';
      const apiKey = url.searchParams.get('key') ?? '';
      if (!sameState(received, state) || !apiKey.startsWith('oxb_')) {
        return new Response(page('Login not accepted', 'This answer does not belong to the login the command line started. Go back to the terminal.'), {
          status: 400,
          headers: { 'content-type': 'text/html; charset=utf-8' },
        });
      }
      settle?.resolve(apiKey);
      return new Response(page('Logged in', 'The command line has its key. You can close this window.'), {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    },
  });
  const timer = setTimeout(
    () => settle?.reject(new CliError('The browser login was not completed in time', exitCodes.auth, 'Run `oxbow login` again, or pass --api-key.')),
    timeoutMs,
  );
  const stop = async () => {
    clearTimeout(timer);
    await server.stop(false);
  };
  const loginUrl = new URL(`${serviceUrl}/api/v1/auth/cli-login`);
  loginUrl.searchParams.set('callback_port', String(server.port));
  loginUrl.searchParams.set('state', state);
  return { url: loginUrl.href, key, stop };
}

function sameState(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Opens the page in the person's browser: $BROWSER when set (the usual convention), else the
 * desktop's opener. Failing to open one is no error: the address is printed as well.
 */
export function openBrowser(url: string): void {
  const browser = process.env.BROWSER?.trim();
  const command = browser
    ? [...browser.split(/\s+/), url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  try {
    Bun.spawn(command, { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' }).unref();
  } catch {
    // No opener on this machine: the printed address does.
  }
}
