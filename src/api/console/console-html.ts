import { escapeHtml } from '../html';
import type { ConsoleManifest } from './console-bundle';

export const consoleAssetsPath = '/console/assets';

/**
 * The page every console address answers with: the application's style sheets and entry module,
 * nothing inline. The style sheet's link carries the page's style nonce, which the SQL editor gives
 * the one style element it writes. The router in the page picks the room from the address.
 */
export function consoleShell(manifest: ConsoleManifest, styleNonce: string): string {
  const asset = (name: string) => escapeHtml(`${consoleAssetsPath}/${name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Oxbow</title>
<link rel="icon" href="data:,">
${manifest.styles.map((name) => `<link rel="stylesheet" href="${asset(name)}" nonce="${styleNonce}">`).join('\n')}
<link rel="modulepreload" href="${asset(manifest.entry)}">
<script type="module" src="${asset(manifest.entry)}"></script>
</head>
<body>
<div id="app"><noscript><p>The Oxbow console needs JavaScript. The API is at <a href="/docs">/docs</a>.</p></noscript></div>
</body>
</html>
`;
}

/** Said when the service runs without a build of the console (the set-up makes one). */
export function consoleMissingHtml(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Oxbow</title></head>
<body>
<main>
<h1>The console is not built</h1>
<p>Run the set-up (<code>npm start</code>, or <code>node scripts/bootstrap.mjs exec true</code>): it builds the console from <code>web/</code>. The API answers meanwhile under <code>/api/v1</code>.</p>
</main>
</body>
</html>
`;
}
