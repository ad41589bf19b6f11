/**
 * A headless Chromium (Debian's `chromium` package) driven by puppeteer-core
 * over a pipe, for tests of the browser interface.
 *
 * @module
 */
import { existsSync } from "node:fs";
import puppeteer, { type Browser, type Page } from "./puppeteer.ts";
import { CHROMIUM_PATHS } from "../../scripts/test_prepare.ts";

/** The page's document, as the functions run in the page see it (Deno's types have no DOM). */
// deno-lint-ignore no-explicit-any
declare const document: any;

/** The Chromium to run: `SVC_CHROMIUM`, else the first of the usual paths that exists (`deno task test` installs one). */
export function chromiumPath(): string {
  const chosen = Deno.env.get("SVC_CHROMIUM") ?? CHROMIUM_PATHS.find((p) => existsSync(p));
  if (!chosen) {
    throw new Error("no Chromium for the browser tests: apt-get install -y chromium (or set SVC_CHROMIUM)");
  }
  return chosen;
}

/** What a page did that a test of hostile data looks at. */
export interface PageWatch {
  /** Messages of dialogs that opened (alert, confirm, prompt); each was dismissed. */
  dialogs: string[];
  /** Uncaught errors in the page. */
  errors: string[];
}

/**
 * A page that records dialogs, uncaught errors and, in `window.__violations`,
 * every Content-Security-Policy violation (a blocked inline script or handler
 * means something got injected).
 */
export async function watchedPage(browser: Browser): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const watch: PageWatch = { dialogs: [], errors: [] };
  page.on("dialog", (dialog) => {
    watch.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (e) => watch.errors.push(String(e)));
  await page.evaluateOnNewDocument(() => {
    const w = globalThis as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e: { violatedDirective: string; blockedURI: string }) => {
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return { page, watch };
}

/** Runs `fn` with a fresh headless Chromium, closed afterwards whatever happens. */
export async function withBrowser(fn: (browser: Browser) => Promise<void>): Promise<void> {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // A pipe rather than a WebSocket on a debugging port: no port another local process could reach.
    pipe: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"],
  });
  try {
    await fn(browser);
  } finally {
    await browser.close();
  }
}

/**
 * Where screenshots go: `SVC_UI_SCREENSHOTS` (kept) when set, else a
 * temporary folder removed by `cleanup`.
 */
export async function screenshotDir(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const kept = Deno.env.get("SVC_UI_SCREENSHOTS");
  if (kept) {
    await Deno.mkdir(kept, { recursive: true });
    return { path: kept, cleanup: () => Promise.resolve() };
  }
  const path = await Deno.makeTempDir({ prefix: "svc-ui-shots-" });
  return { path, cleanup: () => Deno.remove(path, { recursive: true }) };
}

/** Fails unless `path` is a PNG file. */
export async function assertPng(path: string): Promise<void> {
  const bytes = await Deno.readFile(path);
  const magic = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 100 || magic.some((b, i) => bytes[i] !== b)) throw new Error(`${path} is not a PNG`);
}
