/**
 * The TypeScript compiler's syntax tree over this repository's files, for
 * the tests that measure code rather than run it (`tests/layers_test.ts`).
 * The compiler is a test tool only: imported here by full `npm:` specifier
 * (pinned in `deno.dev.lock`), never through the import map, so nothing that
 * runs the node installs it.
 *
 * @module
 */
// Kept out of deno.json on purpose: a run of the node would download every package named there.
// deno-lint-ignore no-import-prefix
import ts from "npm:typescript@5.9.3";

/** One function of a file, as the syntax tree has it. */
export interface FunctionSpan {
  /** Its name: the declared one, else the variable, property or method it is given to, else `(anonymous)`. */
  name: string;
  /** The line it starts on (1-based), its signature's first. */
  line: number;
  /** Its lines, from the first of its signature to the last of its body. */
  lines: number;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  ) {
    return parent.name.getText(source);
  }
  return "(anonymous)";
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node);
}

/**
 * Every function of `text` (a file named `file`) that has a body: its name
 * and how many lines it spans, signature included, however its signature is
 * laid out.
 *
 * @example
 * ```ts ignore
 * functionSpans("a.ts", "function f(\n  a: number,\n): number {\n  return a;\n}\n"); // [{ name: "f", line: 1, lines: 5 }]
 * ```
 */
export function functionSpans(file: string, text: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
