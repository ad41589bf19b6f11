/**
 * The browser interface's two HTML documents: the app shell (everything else
 * is drawn by `/ui/app.js` from the JSON API) and the login page of a node
 * with a token. Neither holds data: the only variable text is a fixed error
 * sentence.
 *
 * @module
 */

const HEAD = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/app.css">`;

/**
 * The app shell served at `/`: views live in the URL's fragment (`#/p/cities`),
 * which the browser never sends, so no view can collide with an API path.
 *
 * @example
 * ```ts
 * import { SHELL_HTML } from "./pages.ts";
 * SHELL_HTML.includes('<script src="/ui/app.js" defer></script>'); // true
 * ```
 */
export const SHELL_HTML = `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>svc node</title>
<script src="/ui/app.js" defer></script>
</head>
<body>
<header class="top">
<a class="brand" href="#/">svc node</a>
<nav id="nav"></nav>
</header>
<main id="main"><p class="muted">Loading…</p></main>
<noscript><p>This page needs JavaScript. The JSON API answers at <code>/projects</code>.</p></noscript>
</body>
</html>
`;

/** What the login page says after a wrong token. */
export const LOGIN_REFUSED = "That is not this node's token.";

/**
 * The login page of a node with a token; `refused` adds {@linkcode LOGIN_REFUSED}.
 *
 * @example
 * ```ts
 * import { loginHtml } from "./pages.ts";
 * loginHtml(true).includes('action="/ui/login"'); // true
 * ```
 */
export function loginHtml(refused: boolean): string {
  const error = refused ? `<p class="error" role="alert" id="login-error">${LOGIN_REFUSED}</p>\n` : "";
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>svc node: log in</title>
</head>
<body>
<header class="top"><span class="brand">svc node</span></header>
<main id="main" class="login">
<h1>Log in</h1>
<p>This node needs its token (<code>svc serve --token</code> or <code>SVC_NODE_TOKEN</code>).</p>
${error}<form method="post" action="/ui/login" id="login">
<label for="token">Node token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required autofocus>
<button type="submit">Log in</button>
</form>
<p class="muted">The node keeps you logged in with a cookie for this address only, for 12 hours or until you log out.</p>
</main>
</body>
</html>
`;
}

/** HTML's special characters as entities, for the one variable text of an error page. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page a browser gets instead of an error's JSON when it navigated to
 * the address itself: the status, the message, and the way back to the
 * node's front page.
 *
 * @example
 * ```ts
 * import { errorHtml } from "./pages.ts";
 * errorHtml(404, "not found: GET /nope").includes('<a href="/">'); // true
 * ```
 */
export function errorHtml(status: number, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>svc node: ${status}</title>
</head>
<body>
<header class="top"><a class="brand" href="/">svc node</a></header>
<main id="main" class="login">
<h1>${status}</h1>
<p class="error" role="alert" id="error-message">${escapeHtml(message)}</p>
<p><a href="/" id="home">Back to this node's datasets</a></p>
</main>
</body>
</html>
`;
}
