// The dependency rules the design rests on, checked on every import in lambda/ and infra/:
//  - the core (lambda/core) is pure TypeScript behind its ports: it imports only other core modules, the
//    project's zod entry point and pure libraries, never an adapter, the AWS SDK or Node's I/O, so every
//    decision it makes can be tested with in-memory ports;
//  - the Lambda code never imports the CDK app (infra/) or tests, which are not in its bundle;
//  - lambda/ reaches zod only through lambda/zod-mini.ts (zod/mini keeps the bundle small);
//  - no import leaves the repository: a clone has nothing beside it;
//  - the core reads no `process` (its environment, argv, exit) and calls no global `fetch`: what it is told
//    comes through its ports (an import would be caught above; these are globals, no import needed).
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from '@typescript/typescript6';
import { describe, expect, it } from 'vitest';
import { parsedText } from './parsed-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Packages the core may use: pure computation, no I/O (@noble/hashes: the SHA-256 c32check itself uses). */
const CORE_PACKAGES = new Set(['c32check', '@noble/hashes', '@stacks/transactions', '@stacks/common']);

interface Import {
  from: string;
  /** Repository-relative path of a relative import's target, or the package name. */
  target: string;
  relative: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Every static import, export-from and dynamic import() of a file. */
export function importsOf(path: string, text?: string): Import[] {
  const file = parsedText(path, join(ROOT, path), text);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specifiers.map((specifier) =>
    specifier.startsWith('.')
      ? {
          from: path,
          target: relative(ROOT, resolve(ROOT, dirname(path), specifier))
            .split(sep)
            .join('/'),
          relative: true,
        }
      : { from: path, target: specifier, relative: false },
  );
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The rule an import breaks, if any. */
export function violation({ from, target, relative: isRelative }: Import): string | null {
  if (isRelative && (target.startsWith('..') || target.startsWith('/'))) return 'leaves the repository';
  if (from.startsWith('lambda/')) {
    if (isRelative && !target.startsWith('lambda/')) return 'reaches out of lambda/ (the Lambda bundle)';
    if (!isRelative && /^zod(\/|$)/.test(target) && from !== 'lambda/zod-mini.ts') return 'imports zod directly instead of lambda/zod-mini.ts';
  }
  if (from.startsWith('lambda/core/')) {
    if (isRelative && !target.startsWith('lambda/core/') && target !== 'lambda/zod-mini') return 'makes the core depend on an outer layer';
    if (!isRelative && !CORE_PACKAGES.has(packageName(target))) return 'gives the core a dependency with I/O or outside its allowed libraries';
  }
  return null;
}

/** The Node and web globals the core must not reach for; a local binding of the same name is fine. */
const CORE_FORBIDDEN_GLOBALS = new Set(['process', 'fetch']);

/** Each use of a forbidden global in `text`: `process.env.X`, `fetch(url)`, `globalThis.fetch`… */
export function forbiddenGlobalsIn(path: string, text?: string): string[] {
  const file = parsedText(path, join(ROOT, path), text);
  const declared = new Set<string>();
  const used: { name: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    const named = (node as { name?: ts.Node }).name;
    if (
      named &&
      ts.isIdentifier(named) &&
      (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isFunctionDeclaration(node) || ts.isImportSpecifier(node) || ts.isBindingElement(node))
    ) {
      declared.add(named.text);
    }
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'globalThis' &&
      CORE_FORBIDDEN_GLOBALS.has(node.name.text)
    ) {
      used.push({ name: `globalThis.${node.name.text}`, line });
    } else if (ts.isIdentifier(node) && CORE_FORBIDDEN_GLOBALS.has(node.text) && isReference(node)) {
      used.push({ name: node.text, line });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return used.filter(({ name }) => name.startsWith('globalThis.') || !declared.has(name)).map(({ name, line }) => `${path}:${line} uses ${name}`);
}

/** The identifier names a value (not a property, a key or a declaration of that name). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  const namesIt = (parent as { name?: ts.Node }).name === node;
  return !(
    namesIt &&
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent))
  );
}

describe('layers', () => {
  it('hold for every import in lambda/ and infra/', () => {
    const broken = [...sourceFiles('lambda'), ...sourceFiles('infra')]
      .flatMap((path) => importsOf(path))
      .map((i) => ({ i, why: violation(i) }))
      .filter(({ why }) => why !== null)
      .map(({ i, why }) => `${i.from} imports ${i.target}: ${why}`);
    expect(broken).toEqual([]);
  });

  it('are checked on what the files really import: a breach of each rule in a sample is caught', () => {
    // Guards the guard: a parser that found no imports would pass the test above.
    const sample = [
      "import { createDynamoStateStore } from '../adapters/dynamodb';",
      "import { readFile } from 'node:fs/promises';",
      "export { x } from './domain';",
      "const later = () => import('../../infra/app');",
      "import * as z from 'zod/mini';",
      "import * as zm from '../zod-mini';",
      "import { c32address } from 'c32check';",
    ].join('\n');
    const found = importsOf('lambda/core/sample.ts', sample).map((i) => `${i.target}: ${violation(i) ?? 'ok'}`);
    expect(found).toEqual([
      'lambda/adapters/dynamodb: makes the core depend on an outer layer',
      'node:fs/promises: gives the core a dependency with I/O or outside its allowed libraries',
      'lambda/core/domain: ok',
      'infra/app: reaches out of lambda/ (the Lambda bundle)',
      'zod/mini: imports zod directly instead of lambda/zod-mini.ts',
      'lambda/zod-mini: ok',
      'c32check: ok',
    ]);
    expect(violation({ from: 'infra/app.ts', target: '../shared/x', relative: true })).toBe('leaves the repository');
  });

  it('keep the core off process and the global fetch: its environment and its HTTP come through ports', () => {
    expect(sourceFiles('lambda/core').flatMap((path) => forbiddenGlobalsIn(path))).toEqual([]);
  });

  it('find each way the core could reach process or fetch in a sample, and not a property or a local of that name', () => {
    const sample = [
      'const level = process.env.LOG_LEVEL;',
      'const answer = await fetch(url);',
      'const viaGlobal = globalThis.fetch;',
      'const { env } = globalThis.process;',
      'const ports = { fetch: api.fetch, process: step.process };',
      'function run(chain: { fetchBlock(): void }) { chain.fetchBlock(); }',
      'interface Port { fetch(url: string): Promise<string>; process: number }',
    ].join('\n');
    expect(forbiddenGlobalsIn('lambda/core/sample.ts', sample)).toEqual([
      'lambda/core/sample.ts:1 uses process',
      'lambda/core/sample.ts:2 uses fetch',
      'lambda/core/sample.ts:3 uses globalThis.fetch',
      'lambda/core/sample.ts:4 uses globalThis.process',
    ]);
    expect(forbiddenGlobalsIn('lambda/core/sample.ts', 'function read(fetch: (u: string) => string) { return fetch("x"); }')).toEqual([]);
  });
});
