/**
 * The Prometheus text exposition format (version 0.0.4): metric families
 * as `# HELP`, `# TYPE` and one line per sample, label values and help
 * escaped as the format says.
 *
 * @module
 */

/** What a family measures: a value that only grows, one that goes both ways, or a distribution. */
export type MetricType = "counter" | "gauge" | "histogram";

/** Label names to values (names are `[a-zA-Z_][a-zA-Z0-9_]*`). */
export type Labels = Readonly<Record<string, string>>;

/** One sample: its labels and its value; `suffix` is appended to the family's name (`_bucket`, `_sum`, ...). */
export interface Sample {
  /** Labels of this sample. */
  labels: Labels;
  /** The value (`NaN` and infinities are written as the format spells them). */
  value: number;
  /** Appended to the family's name, for histograms' series. */
  suffix?: string;
}

/** A metric family: a name, what it means and its samples. */
export interface Family {
  /** The metric's name (`[a-zA-Z_:][a-zA-Z0-9_:]*`). */
  name: string;
  /** One line saying what it measures. */
  help: string;
  /** Its type. */
  type: MetricType;
  /** Its samples; a family without samples is written with its help and type alone. */
  samples: Sample[];
}

/** The `Content-Type` of the text format. */
export const EXPOSITION_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}

function escapeLabel(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
}

/**
 * A sample's value as the format writes it.
 *
 * @example
 * ```ts
 * import { formatValue } from "./exposition.ts";
 * formatValue(Infinity); // "+Inf"
 * formatValue(0.25); // "0.25"
 * ```
 */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function labelText(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length === 0) return "";
  const pairs = names.map((name) => {
    if (!LABEL.test(name)) throw new Error(`metrics: ${JSON.stringify(name)} is not a label name`);
    return `${name}="${escapeLabel(labels[name])}"`;
  });
  return `{${pairs.join(",")}}`;
}

/**
 * The families in the text format, each name once (a repeated name is an
 * error of the caller).
 *
 * @example
 * ```ts
 * import { renderFamilies } from "./exposition.ts";
 * renderFamilies([{ name: "up", help: "Whether it answers.", type: "gauge", samples: [{ labels: {}, value: 1 }] }]);
 * // "# HELP up Whether it answers.\n# TYPE up gauge\nup 1\n"
 * ```
 */
export function renderFamilies(families: readonly Family[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const family of families) {
    if (!NAME.test(family.name) || seen.has(family.name)) {
      throw new Error(`metrics: ${JSON.stringify(family.name)} is not a metric name, or is written twice`);
    }
    seen.add(family.name);
    out.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      out.push(`${family.name}${sample.suffix ?? ""}${labelText(sample.labels)} ${formatValue(sample.value)}`);
    }
  }
  return out.join("\n") + "\n";
}
