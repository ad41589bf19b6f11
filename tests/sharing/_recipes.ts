/**
 * The Python recipes of a Markdown document (docs/delta-sharing.md), taken
 * out as written, for the reader tests to run verbatim.
 *
 * @module
 */

/** A fenced `python` block: `pandas` when it uses the delta_sharing connector, `spark` when it reads with Spark. */
export interface Recipe {
  /** Which reader it is for. */
  kind: "pandas" | "spark";
  /** The block's code, as written. */
  code: string;
}

/**
 * The fenced `python` blocks of `markdown`, in order.
 *
 * @example
 * ```ts
 * import { pythonRecipes } from "./_recipes.ts";
 * pythonRecipes("\x60\x60\x60python\ndf = spark.read.format('deltaSharing')\n\x60\x60\x60\n")[0].kind; // "spark"
 * ```
 */
export function pythonRecipes(markdown: string): Recipe[] {
  const out: Recipe[] = [];
  for (const [, code] of markdown.matchAll(/^```python\n([\s\S]*?)^```$/gm)) {
    out.push({ kind: /\bspark\.read\b/.test(code) ? "spark" : "pandas", code });
  }
  if (!out.some((r) => r.kind === "pandas") || !out.some((r) => r.kind === "spark")) {
    throw new Error("the document has lost its pandas or its Spark recipe");
  }
  return out;
}
