/**
 * The Prometheus text format as written: escaping of help and label values,
 * special values, cumulative histogram buckets, and refusals of names the
 * format does not allow.
 *
 * @module
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import { counter, gauge, histogram, renderFamilies } from "../../src/metrics/mod.ts";

Deno.test("exposition: help and label values are escaped, special values spelled as the format says", () => {
  const text = renderFamilies([
    gauge("svc_odd", 'Back\\slash and\nnewline, "quotes" kept in help.', [
      [{ project: 'a"b\\c\nd' }, NaN],
      [{ project: "up" }, Infinity],
      [{ project: "down" }, -Infinity],
    ]),
  ]);
  assertEquals(
    text,
    '# HELP svc_odd Back\\\\slash and\\nnewline, "quotes" kept in help.\n# TYPE svc_odd gauge\n' +
      'svc_odd{project="a\\"b\\\\c\\nd"} NaN\nsvc_odd{project="up"} +Inf\nsvc_odd{project="down"} -Inf\n',
  );
});

Deno.test("exposition: histogram buckets are cumulative, with +Inf, _sum and _count per label set", () => {
  const took = histogram("svc_took_seconds", "Time.", [0.1, 1, 10]);
  for (const v of [0.05, 0.1, 0.5, 5, 50]) took.observe({ route: "/a" }, v);
  took.observe({ route: "/b" }, 2);
  const lines = renderFamilies([took.family()]).trim().split("\n").slice(2);
  assertEquals(lines, [
    'svc_took_seconds_bucket{route="/a",le="0.1"} 2',
    'svc_took_seconds_bucket{route="/a",le="1"} 3',
    'svc_took_seconds_bucket{route="/a",le="10"} 4',
    'svc_took_seconds_bucket{route="/a",le="+Inf"} 5',
    'svc_took_seconds_sum{route="/a"} 55.65',
    'svc_took_seconds_count{route="/a"} 5',
    'svc_took_seconds_bucket{route="/b",le="0.1"} 0',
    'svc_took_seconds_bucket{route="/b",le="1"} 0',
    'svc_took_seconds_bucket{route="/b",le="10"} 1',
    'svc_took_seconds_bucket{route="/b",le="+Inf"} 1',
    'svc_took_seconds_sum{route="/b"} 2',
    'svc_took_seconds_count{route="/b"} 1',
  ]);
});

Deno.test("exposition: counters add per label set; bad names and a name written twice are refused", () => {
  const c = counter("svc_things_total", "Things.");
  c.inc({ kind: "a" });
  c.inc({ kind: "a" }, 2);
  c.inc({ kind: "b" });
  assertEquals(c.family().samples.map((s) => [s.labels.kind, s.value]), [["a", 3], ["b", 1]]);
  assertThrows(() => renderFamilies([gauge("svc-bad", "Dash.", [])]), /not a metric name/);
  assertThrows(() => renderFamilies([c.family(), c.family()]), /written twice/);
  assertThrows(() => renderFamilies([gauge("svc_ok", "Ok.", [[{ "bad-label": "x" }, 1]])]), /label name/);
});
