/**
 * The browser interface's HTML documents: a page of the interface around
 * its view's markup (drawn by `views/`, escaped there), the login page of a
 * node with a token, and the page of an error outside the interface.
 *
 * @module
 */

import { escapeHtml } from "./views/mod.ts";

const HEAD = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/app.css">`;

/** The navigation bar's links: a page's name, its address, its label. */
const NAV: readonly [string, string, string][] = [["projects", "/", "Projects"], ["mcp", "/ui/mcp", "MCP"]];

/** What a page of the interface holds: its title, its view's name, and its `<main>` as HTML. */
export interface PageParts {
  /** The page's title (the node's name is added). */
  title: string;
  /** The view's name (`projects`, `data`, `error`, ...), in `<main data-view>`. */
  view: string;
  /** The markup of `<main>`, already HTML (escaped where it holds data). */
  main: string;
  /** Whether the node is read-only (a badge says so). */
  readOnly: boolean;
  /** Whether the node has a token (a logout button). */
  tokenNode: boolean;
}

/**
 * A page of the interface: the head, the navigation bar, and `<main>` with
 * the view's data in it, readable as it is; the script (`/ui/app.js`)
 * then enhances it and draws the next pages itself, as the reader moves.
 *
 * @example
 * ```ts
 * import { pageHtml } from "./pages.ts";
 * const page = pageHtml({ title: "Projects", view: "projects", main: "<h1>Projects</h1>", readOnly: false, tokenNode: false });
 * page.includes('<script src="/ui/app.js" defer></script>') && page.includes("<h1>Projects</h1>"); // true
 * ```
 */
export function pageHtml(parts: PageParts): string {
  const nav = NAV.map(([name, href, label]) =>
    `<a href="${href}" data-view="${name}"${name === parts.view ? ' aria-current="page"' : ""}>${label}</a>`
  ).join("\n");
  const badge = parts.readOnly ? '\n<span class="badge">read-only</span>' : "";
  const logout = parts.tokenNode
    ? '\n<form method="post" action="/ui/logout" id="logout"><button type="submit" class="quiet">Log out</button></form>'
    : "";
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<title>${escapeHtml(parts.title ? parts.title + " · svc node" : "svc node")}</title>
<script src="/ui/app.js" defer></script>
</head>
<body>
<header class="top">
<a class="brand" href="/">svc node</a>
<nav id="nav">
${nav}
<span class="spacer"></span>${badge}${logout}
</nav>
</header>
<main id="main" data-view="${escapeHtml(parts.view)}">
${parts.main}
</main>
</body>
</html>
`;
}

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
