import { randomBytes } from 'node:crypto';
import { Elysia, t } from 'elysia';
import { AppError } from '../../errors/app-error';
import { ConsoleBundle } from './console-bundle';
import { consoleAssetsPath, consoleMissingHtml, consoleShell } from './console-html';

/**
 * The addresses the console's router answers (web/src/router/paths.ts); every other address stays
 * the API's, the public pages' or a 404. Mail links land here: `/verify-email?token=`,
 * `/reset-password?token=`, `/signup?email=` (invitations), `/login`; the OAuth callback returns to
 * `/connections/<id>` or `/connections?error=`, the billing portal to `/workspaces/<id>/billing`.
 */
export const consolePagePaths = [
  '/',
  '/login',
  '/signup',
  '/waitlist',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/account',
  '/account/*',
  '/workspaces',
  '/workspaces/*',
  '/connections',
  '/connections/*',
] as const;

/**
 * The console's policy: the public pages' (no inline script, no style attribute, nothing from
 * another origin) plus calls to the service's own API, and no framing at all, since its pages change
 * things. One difference: style elements that carry the page's nonce, a new one for every page,
 * which only the SQL editor (CodeMirror writes its rules into a style element) uses.
 */
export function consolePolicy(styleNonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "style-src-attr 'none'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const pageHeaders: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  // A page's address may carry a mail link's token: it never leaves in a Referer.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** The web console: one page for every console address, and the build's files under /console/assets. */
export function consoleRoutes(dir: string) {
  const bundle = new ConsoleBundle(dir);
  const shell = () => {
    const manifest = bundle.manifest();
    const nonce = randomBytes(18).toString('base64url');
    const headers = { ...pageHeaders, 'content-security-policy': consolePolicy(nonce) };
    return new Response(manifest ? consoleShell(manifest, nonce) : consoleMissingHtml(), { status: manifest ? 200 : 503, headers });
  };
  // Typed as a plain Elysia: the routes' own types would make this loop's result a union.
  const app: Elysia = new Elysia();
  for (const path of consolePagePaths) app.get(path, shell, { detail: { hide: true } });
  return app.get(
    `${consoleAssetsPath}/:file`,
    ({ params, request }) => {
      const file = bundle.file(params.file, /\bgzip\b/.test(request.headers.get('accept-encoding') ?? ''));
      if (!file) throw new AppError('NOT_FOUND', `No console file named ${params.file}`);
      const headers: Record<string, string> = {
        'content-type': file.type,
        // Names carry a hash of their content: a new build has new names.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        vary: 'accept-encoding',
      };
      if (file.gzip) headers['content-encoding'] = 'gzip';
      return new Response(Bun.file(file.path), { headers });
    },
    { params: t.Object({ file: t.String({ maxLength: 200 }) }), detail: { hide: true } },
  );
}
