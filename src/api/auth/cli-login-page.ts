import { escapeHtml } from '../html';

/** The browser login form of the command-line client. Every interpolated value is escaped. */
export function cliLoginPage(input: { callbackPort: number; state: string; email?: string; error?: string }): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to the Oxbow CLI</title>
<style>
body { font-family: system-ui, sans-serif; background: #f5f7f9; display: grid; place-items: center; min-height: 100vh; margin: 0; }
form { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; width: 20rem; }
label { display: block; margin-top: 1rem; font-size: .9rem; }
input { width: 100%; box-sizing: border-box; padding: .5rem; margin-top: .25rem; }
button { margin-top: 1.5rem; width: 100%; padding: .6rem; }
.error { color: #b00020; }
</style>
</head>
<body>
<form method="post" action="/api/v1/auth/cli-login">
<h1>Oxbow CLI</h1>
<p>Sign in to connect the command-line client running on this computer.</p>
${error}
<label>E-mail <input type="email" name="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<input type="hidden" name="callback_port" value="${escapeHtml(String(input.callbackPort))}">
<input type="hidden" name="state" value="${escapeHtml(input.state)}">
<button type="submit">Sign in</button>
</form>
</body>
</html>`;
}
