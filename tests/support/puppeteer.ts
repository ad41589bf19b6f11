/**
 * puppeteer-core, for tests only: drives Chromium in the browser tests. It
 * is imported here by its full npm specifier, pinned, so that it is in no
 * import map nor the runtime's lock file (`deno.lock`): starting a node
 * never fetches it; the tests' own lock file (`deno.dev.lock`) pins it.
 *
 * @module
 */
export { default } from "npm:puppeteer-core@25.16.0";
export type { Browser, Page } from "npm:puppeteer-core@25.16.0";
