// Size limits on the source, so that no file or function grows past what a reader takes in at once:
// a source file in lambda/ or infra/ has at most 300 lines, a function or method at most 80 (its whole span,
// from its first line to its last, closures inside it included: a factory of twenty closures is one big function).
//
// The same limits hold in bench/ and scripts/ (they are read and changed like the rest).
//
// Exempt, because their length is declaration rather than logic:
//  - a function whose body is only `const` declarations and a final `return` (or an arrow whose body is an
//    expression), whose functions inside span at most 20 lines together, none over 10 (a schema's short
//    refinement callback is a condition, not logic): no branch, loop, try or closure with logic, so it
//    declares a value (a zod schema built for a network, a lookup table, a set of options) rather than
//    computing one step by step. A factory's closures count, however short each: a factory returning twenty
//    small methods is logic, written as one long function;
//  - the constructor of a class extending Construct, Stack or Stage: a CDK constructor declares resources.
// Zod schemas are `const` expressions, not functions, so only their file's length applies to them.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from '@typescript/typescript6';
import { describe, expect, it } from 'vitest';
import { parsedText } from './parsed-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const CDK_BASES = new Set(['Construct', 'Stack', 'Stage']);

/**
 * What exceeds the limits today, and is being cut down. The list may only shrink: a new offender fails,
 * an entry that grew fails, and an entry no longer oversized fails until it is removed from here.
 * `name` is `(file)` for a file's length, else the function's name qualified by its class or enclosing function.
 */
const KNOWN_OVERSIZED: readonly { path: string; name: string; lines: number }[] = [];

interface Offender {
  path: string;
  name: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

function lineSpan(node: ts.Node, file: ts.SourceFile): number {
  const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
  const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
  return last - first + 1;
}

/** The function only declares constants and returns a value built from them: a declaration, not logic. */
function onlyDeclares(fn: ts.FunctionLikeDeclaration): boolean {
  const body = fn.body;
  if (!body) return false;
  if (hasLogic(body) || closureLines(body) > MAX_DECLARATIVE_CLOSURE_LINES) return false;
  if (!ts.isBlock(body)) return true;
  const statements = [...body.statements];
  const last = statements.pop();
  const isConst = (s: ts.Statement) => ts.isVariableStatement(s) && (s.declarationList.flags & ts.NodeFlags.Const) !== 0;
  return last !== undefined && ts.isReturnStatement(last) && last.expression !== undefined && statements.every(isConst);
}

const MAX_DECLARATIVE_CALLBACK_LINES = 10;
const MAX_DECLARATIVE_CLOSURE_LINES = 20;

/** The lines of the functions directly inside `node` (closures, methods, callbacks), together. */
function closureLines(node: ts.Node): number {
  const file = node.getSourceFile();
  let total = 0;
  const visit = (child: ts.Node): void => {
    if (ts.isFunctionLike(child) && 'body' in child && child.body !== undefined) total += lineSpan(child, file);
    else ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  return total;
}

/** Some function inside `node` has a statement body of over 10 lines (short refinement callbacks do not count). */
function hasLogic(node: ts.Node): boolean {
  const file = node.getSourceFile();
  const isLogic = (child: ts.Node) =>
    ts.isFunctionLike(child) &&
    'body' in child &&
    child.body !== undefined &&
    ts.isBlock(child.body as ts.Node) &&
    lineSpan(child, file) > MAX_DECLARATIVE_CALLBACK_LINES;
  return ts.forEachChild(node, (child) => isLogic(child) || hasLogic(child) || undefined) ?? false;
}

function isCdkConstructor(fn: ts.FunctionLikeDeclaration): boolean {
  if (!ts.isConstructorDeclaration(fn) || !ts.isClassLike(fn.parent)) return false;
  return (fn.parent.heritageClauses ?? []).some(
    (clause) => clause.token === ts.SyntaxKind.ExtendsKeyword && clause.types.some((type) => CDK_BASES.has(type.expression.getText().split('.').pop()!)),
  );
}

function nameOf(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const named = (node as { name?: ts.Node }).name;
  if (named && (ts.isIdentifier(named) || ts.isStringLiteral(named) || ts.isPrivateIdentifier(named))) return named.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return undefined;
}

function oversizedIn(path: string, sample?: string): Offender[] {
  const file = parsedText(path, join(ROOT, path), sample);
  const text = file.text;
  const found: Offender[] = [];
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) found.push({ path, name: '(file)', lines: fileLines });
  const visit = (node: ts.Node, scope: string[]) => {
    let inner = scope;
    if (ts.isClassLike(node) && node.name) inner = [...scope, node.name.text];
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const name = [...scope, nameOf(fn) ?? `<anonymous:${file.getLineAndCharacterOfPosition(fn.getStart(file)).line + 1}>`].join('.');
      const lines = lineSpan(fn, file);
      if (lines > MAX_FUNCTION_LINES && !onlyDeclares(fn) && !isCdkConstructor(fn)) found.push({ path, name, lines });
      inner = [...scope, nameOf(fn) ?? '<anonymous>'];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, []);
  return found;
}

const key = (o: { path: string; name: string }) => `${o.path} ${o.name}`;

describe('source sizes', () => {
  const measured = [...sourceFiles('lambda'), ...sourceFiles('infra'), ...sourceFiles('bench'), ...sourceFiles('scripts')].flatMap((path) => oversizedIn(path));
  const known = new Map(KNOWN_OVERSIZED.map((o) => [key(o), o]));

  it(`has no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} lines beyond the known ones, and none of those grew`, () => {
    const problems = measured
      .filter((o) => !known.has(key(o)) || o.lines > known.get(key(o))!.lines)
      .map((o) => (known.has(key(o)) ? `${key(o)} grew to ${o.lines} lines (listed at ${known.get(key(o))!.lines})` : `${key(o)} has ${o.lines} lines`));
    expect(problems).toEqual([]);
  });

  it('lists as known only what is still oversized, so the list can only shrink', () => {
    const stillOversized = new Set(measured.map(key));
    const fixed = KNOWN_OVERSIZED.filter((o) => !stillOversized.has(key(o))).map((o) => `${key(o)} is within the limit now: remove it from KNOWN_OVERSIZED`);
    expect(fixed).toEqual([]);
  });

  it('measures what it claims to: long logic is found, long CDK constructors and declarations are not', () => {
    // Guards the guard: a walker that saw nothing would pass the tests above.
    const body = (n: number) => Array.from({ length: n }, (_, i) => `    total += ${i};`).join('\n');
    const entries = (n: number) => Array.from({ length: n }, (_, i) => `    k${i}: ${i},`).join('\n');
    const sample = [
      `export function fits(total: number) {\n${body(78)}\n}`,
      `export function tooLong(total: number) {\n${body(79)}\n}`,
      `class Plain { constructor(total: number) {\n${body(90)}\n} }`,
      `class Site extends cdk.Stack { constructor(total: number) {\n${body(90)}\n} }`,
      `class Holder { build() { const check = (total: number) => {\n${body(90)}\n}; return check; } }`,
      `function options() {\n  const base = 1;\n  return {\n${entries(90)}\n  };\n}`,
      `function branching(x: number) {\n  if (x) return 1;\n  return {\n${entries(90)}\n  };\n}`,
    ].join('\n');
    expect(oversizedIn('sample.ts', sample).map(({ name, lines }) => `${name} ${lines}`)).toEqual([
      '(file) 627',
      'tooLong 81',
      'Plain.constructor 92',
      'Holder.build 92',
      'Holder.build.check 92',
      'branching 95',
    ]);
  });

  it("counts a factory's closures: short methods returned together are logic, a declaration's few short callbacks are not", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `      total += ${i};`).join('\n');
    const entries = (n: number) => Array.from({ length: n }, (_, i) => `    k${i}: ${i},`).join('\n');
    // Methods of 7 lines each, as a factory returns them.
    const methods = (n: number) => Array.from({ length: n }, (_, i) => `    m${i}(total: number) {\n${body(5)}\n    },`).join('\n');
    const sample = [
      `function factory() {\n  const base = 1;\n  return {\n${methods(12)}\n  };\n}`,
      `const arrowFactory = () => ({\n${methods(12)}\n});`,
      `function schema() {\n  const base = 1;\n  return {\n${entries(80)}\n${methods(2)}\n  };\n}`,
    ].join('\n');
    expect(
      oversizedIn('sample.ts', sample)
        .filter((o) => o.name !== '(file)')
        .map(({ name, lines }) => `${name} ${lines}`),
    ).toEqual(['factory 89', 'arrowFactory 86']);
  });
});
