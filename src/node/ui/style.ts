/**
 * The browser interface's style sheet, served at `/ui/app.css`.
 *
 * @module
 */

/**
 * The style sheet (system fonts, light and dark, no external resources).
 *
 * @example
 * ```ts
 * import { APP_CSS } from "./style.ts";
 * APP_CSS.includes("table"); // true
 * ```
 */
export const APP_CSS = String.raw`:root {
  --fg: #1d2125; --muted: #5c6670; --bg: #ffffff; --panel: #f4f6f8; --line: #d5dbe1;
  --accent: #0b5cad; --error: #b3261e; --ok: #1b7f3b;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: var(--bg);
}
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ec; --muted: #9aa5b1; --bg: #15181b; --panel: #1f2428; --line: #39414a;
    --accent: #6cb2ff; --error: #ff8a80; --ok: #7bd88f; }
}
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.45; }
a { color: var(--accent); }
code, pre, textarea, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow: auto; }
.top { display: flex; align-items: center; gap: 1.5rem; padding: 0.6rem 1.25rem; border-bottom: 1px solid var(--line);
  background: var(--panel); flex-wrap: wrap; }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
#nav { display: flex; gap: 1rem; align-items: center; flex: 1; flex-wrap: wrap; }
#nav .spacer { flex: 1; }
#nav form { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
main.login { max-width: 28rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0 0.25rem; }
h2 { font-size: 1.25rem; margin: 1.75rem 0 0.5rem; }
.muted { color: var(--muted); }
.error { color: var(--error); font-weight: 600; white-space: pre-wrap; }
.ok { color: var(--ok); }
.badge { display: inline-block; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.55rem;
  font-size: 0.8rem; color: var(--muted); margin-right: 0.35rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.75rem 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.readme { border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 1rem; overflow-wrap: anywhere; }
.table-wrap { overflow: auto; border: 1px solid var(--line); border-radius: 6px; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); position: sticky; top: 0; }
th .type { display: block; font-weight: 400; font-size: 0.75rem; color: var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.null { color: var(--muted); font-style: italic; }
td { max-width: 32rem; overflow-wrap: anywhere; }
.pager { display: flex; gap: 1rem; align-items: center; margin: 0.75rem 0; flex-wrap: wrap; }
.pager a[aria-disabled="true"] { pointer-events: none; color: var(--muted); text-decoration: none; }
.links { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0.5rem 0; }
form.sql { display: grid; gap: 0.5rem; }
textarea { width: 100%; min-height: 7rem; padding: 0.5rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--bg); color: var(--fg); }
input { padding: 0.35rem 0.5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
button { padding: 0.35rem 0.9rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent);
  color: var(--bg); cursor: pointer; font: inherit; }
button.quiet { background: transparent; color: var(--accent); }
.login form { display: grid; gap: 0.5rem; margin: 1rem 0; }
.row { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
select { padding: 0.3rem 0.4rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg);
  font: inherit; }
.tabs { display: flex; gap: 0.25rem; border-bottom: 1px solid var(--line); margin: 0.5rem 0 1rem; flex-wrap: wrap; }
.tabs a { padding: 0.35rem 0.8rem; text-decoration: none; border: 1px solid transparent; border-bottom: none;
  border-radius: 6px 6px 0 0; margin-bottom: -1px; }
.tabs a[aria-current="page"] { border-color: var(--line); background: var(--bg); color: var(--fg); font-weight: 600; }
.view-form { margin: 0.5rem 0; }
.view-form input[type="search"] { flex: 1; min-width: 14rem; }
th a.sort { color: var(--fg); text-decoration: none; }
th a.sort:hover { text-decoration: underline; }
th[aria-sort] a.sort { color: var(--accent); }
tr.filters td { background: var(--panel); padding: 0.25rem 0.4rem; }
tr.filters td.filter { min-width: 6.5rem; }
tr.filters select, tr.filters input { display: block; width: 100%; font-size: 0.8rem; padding: 0.1rem 0.25rem; }
tr.filters select { margin-bottom: 0.2rem; }
th.rownum, td.rownum { color: var(--muted); text-align: right; width: 1%; white-space: nowrap; }
.chips { list-style: none; display: flex; flex-wrap: wrap; gap: 0.4rem; padding: 0; margin: 0.5rem 0; }
.chip { border: 1px solid var(--line); border-radius: 999px; padding: 0.1rem 0.35rem 0.1rem 0.7rem; font-size: 0.85rem;
  background: var(--panel); }
.remove { text-decoration: none; margin-left: 0.4rem; }
.facet-controls { margin: 0.5rem 0; }
.facet-panels { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.75rem; margin: 0.5rem 0; }
.facet { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.75rem; }
.facet h3 { font-size: 0.95rem; margin: 0.2rem 0; display: flex; justify-content: space-between; }
.facet ul { list-style: none; padding: 0; margin: 0; max-height: 14rem; overflow: auto; font-size: 0.88rem; }
.facet li.selected a { font-weight: 700; }
.facet li.selected a::before { content: "✓ "; }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.null { color: var(--muted); font-style: italic; }
.pager select, .pager input[type="number"] { width: 5.5rem; }
.pager form { margin: 0; }
.downloads a { margin: 0 0.15rem; }
table.record th { width: 14rem; }
table.record td.num { text-align: left; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 0.9rem; }
.stat { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.9rem; min-width: 0; }
.stat h3 { font-size: 1rem; margin: 0.2rem 0; display: flex; gap: 0.5rem; align-items: baseline;
  justify-content: space-between; overflow-wrap: anywhere; }
.type { font-weight: 400; font-size: 0.75rem; color: var(--muted); }
.stat .facts { font-size: 0.85rem; margin: 0.4rem 0; }
.approximate { border-bottom: 1px dotted var(--muted); cursor: help; }
.chart .bar { fill: var(--accent); }
.chart rect.bar:hover { opacity: 0.7; }
figure.histogram { margin: 0.3rem 0; }
figure.histogram .axis { display: flex; justify-content: space-between; width: 280px; font-size: 0.75rem;
  color: var(--muted); }
figure.histogram .scale { font-size: 0.75rem; }
#diff-summary { font-size: 1.05rem; }
ol.bars { list-style: none; padding: 0; margin: 0.4rem 0; font-size: 0.85rem; }
ol.bars li { display: grid; grid-template-columns: minmax(0, 1fr) 120px 3.5rem; gap: 0.5rem; align-items: center; }
ol.bars .value { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
ol.bars .count { text-align: right; }
.sql-layout { display: grid; grid-template-columns: minmax(0, 1fr) 16rem; gap: 1rem; align-items: start; }
@media (max-width: 48rem) { .sql-layout { grid-template-columns: 1fr; } }
aside.columns { border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 0.75rem; max-height: 20rem; overflow: auto; }
aside.columns h2 { font-size: 0.95rem; margin: 0.4rem 0; }
aside.columns ul { list-style: none; padding: 0; margin: 0; }
aside.columns li { display: flex; justify-content: space-between; gap: 0.5rem; align-items: baseline; }
button.column { background: none; border: none; color: var(--accent); padding: 0.1rem 0; cursor: pointer; text-align: left;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; overflow-wrap: anywhere; }
.readme table { display: block; width: max-content; max-width: 100%; overflow: auto; margin: 0.75rem 0; }
.readme [align="right"] { text-align: right; }
.readme [align="center"] { text-align: center; }
.way-back { margin-top: 1rem; }
`;
