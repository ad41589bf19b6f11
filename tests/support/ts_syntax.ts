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

/** What one file takes from another: the names it imports or re-exports, or `*` when it takes the whole module. */
export interface NamesTaken {
  /** The specifier as written. */
  specifier: string;
  /** The names taken (the exported names, before any `as`), or `["*"]` for a namespace or an opaque use. */
  names: string[];
}

function bound(pattern: ts.BindingName): string[] {
  return ts.isObjectBindingPattern(pattern) ? pattern.elements.map((e) => (e.propertyName ?? e.name).getText()) : ["*"];
}

function dynamicNames(call: ts.CallExpression): string[] {
  let at: ts.Node = call;
  // `Promise.all([import(a), import(b)])` destructured as `[{ x }, { y }]`: the names at this import's place.
  if (ts.isArrayLiteralExpression(at.parent) && ts.isCallExpression(at.parent.parent)) {
    const index = at.parent.elements.indexOf(call);
    let outer: ts.Node = at.parent.parent;
    if (ts.isAwaitExpression(outer.parent)) outer = outer.parent;
    const declared = outer.parent;
    if (ts.isVariableDeclaration(declared) && ts.isArrayBindingPattern(declared.name)) {
      const element = declared.name.elements[index];
      return element && ts.isBindingElement(element) ? bound(element.name) : ["*"];
    }
    return ["*"];
  }
  if (ts.isAwaitExpression(at.parent)) at = at.parent;
  while (ts.isParenthesizedExpression(at.parent)) at = at.parent;
  const parent = at.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === at) return [parent.name.text];
  if (ts.isVariableDeclaration(parent)) return bound(parent.name);
  return ["*"];
}

/**
 * What `text` (a file named `file`) takes from each module it imports:
 * static imports and re-exports by name, `import()` by what the code reads
 * of the module (`(await import(x)).name`, `const { a } = await import(x)`).
 *
 * @example
 * ```ts ignore
 * namesTaken("a.ts", 'import { a, type B as C } from "./m.ts";'); // [{ specifier: "./m.ts", names: ["a", "B"] }]
 * ```
 */
export function namesTaken(file: string, text: string): NamesTaken[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: NamesTaken[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const names = !clause ? [] : bindings && ts.isNamespaceImport(bindings) ? ["*"] : [
        ...(clause.name ? ["default"] : []),
        ...(bindings?.elements.map((e) => (e.propertyName ?? e.name).text) ?? []),
      ];
      found.push({ specifier: node.moduleSpecifier.text, names });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const names = clause && ts.isNamedExports(clause)
        ? clause.elements.map((e) => (e.propertyName ?? e.name).text)
        : ["*"];
      found.push({ specifier: node.moduleSpecifier.text, names });
    } else if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, names: dynamicNames(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The names a module's door passes on: each `export { a, type B }` by name,
 * and `*` for an `export *` or `export type *` (which names nothing).
 *
 * @example
 * ```ts ignore
 * namesPassedOn("mod.ts", 'export { a } from "./a.ts";\nexport type * from "./b.ts";'); // ["a", "*"]
 * ```
 */
export function namesPassedOn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const node of source.statements) {
    if (!ts.isExportDeclaration(node)) continue;
    const clause = node.exportClause;
    if (clause && ts.isNamedExports(clause)) names.push(...clause.elements.map((e) => e.name.text));
    else names.push("*");
  }
  return names;
}

/** One name a file exports, and whether it is a type alone. */
export interface Exported {
  /** The name. */
  name: string;
  /** Whether it names a type only (an interface or a type alias). */
  typeOnly: boolean;
}

/**
 * The names `text` (a file named `file`) exports, declared there or passed
 * on by name (`export { a, type B } from`), with whether each is a type
 * alone.
 *
 * @example
 * ```ts ignore
 * declaredExports("a.ts", "export interface A {}\nexport const b = 1;"); // [{ name: "A", typeOnly: true }, { name: "b", typeOnly: false }]
 * ```
 */
export function declaredExports(file: string, text: string): Exported[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Exported[] = [];
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      for (const e of node.exportClause.elements) {
        found.push({ name: e.name.text, typeOnly: node.isTypeOnly || e.isTypeOnly });
      }
      continue;
    }
    if (!exported(node)) continue;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      found.push({ name: node.name.text, typeOnly: true });
    } else if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) {
      if (node.name) found.push({ name: node.name.text, typeOnly: false });
    } else if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) found.push({ name: d.name.getText(source), typeOnly: false });
    }
  }
  return found;
}
