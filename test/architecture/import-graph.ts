// The project's own import graph, read with the TypeScript compiler that type-checks it: every `import`,
// `import type`, `export … from` and `import()` type between files under the given folders, resolved with
// tsconfig.json's options. Type imports count: a circle of types still ties the files into one unit.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from '@typescript/typescript6';
import { parsedFile } from './parsed-files';

const ROOT = resolve(import.meta.dirname, '../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'cdk.out' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

function specifiers(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each file's imports resolved to files (absolute paths), once per worker: the guards ask for lambda/ twice. */
const resolvedImports = new Map<string, string[]>();
let resolution: { options: ts.CompilerOptions; cache: ts.ModuleResolutionCache } | undefined;

function importsResolved(file: string): string[] {
  let targets = resolvedImports.get(file);
  if (targets === undefined) {
    if (resolution === undefined) {
      const options = compilerOptions();
      resolution = { options, cache: ts.createModuleResolutionCache(ROOT, (name) => name, options) };
    }
    const { options, cache } = resolution;
    targets = specifiers(parsedFile(file))
      .map((specifier) => ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined)
      .map((target) => resolve(target));
    resolvedImports.set(file, targets);
  }
  return targets;
}

/** file → the project files it imports (paths relative to the repository root). */
export function importGraph(folders: readonly string[]): Map<string, string[]> {
  const files = folders.flatMap((folder) => tsFiles(join(ROOT, folder)));
  const inScope = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsResolved(file).filter((target) => inScope.has(target));
    graph.set(rel(file), [...new Set(targets.map(rel))]);
  }
  return graph;
}

const rel = (path: string) => path.slice(ROOT.length + 1);

/** Every import circle, each as the files around it (strongly connected components of more than one file, or a file importing itself). */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative over the recursion it replaces only in spirit: the graph is a few hundred files.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return circles;
}
