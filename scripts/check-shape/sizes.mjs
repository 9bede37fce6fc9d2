// Measures the size rules of the contributing guide over the TypeScript program's own files:
// a source file is at most 300 lines, a function at most 80, and each adapter at most its target
// (lines of code, blank lines and comments left out). The private `test-utils` package has a looser
// rule of its own, files at most 400 lines and functions at most 150: its suites are long lists of
// test bodies, but a suite still reads in named steps. Tests themselves (`*.test.ts`, `test/`
// folders) and the `test-vectors` data are not measured. The named exceptions live in
// ./exceptions.mjs with their reasons.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const FILE_LIMIT = 300;
export const FUNCTION_LIMIT = 80;
/** The shared suites' limits, over `packages/test-utils/src`. */
export const TEST_UTILS_FILE_LIMIT = 400;
export const TEST_UTILS_FUNCTION_LIMIT = 150;

/** Adapter source files and their targets in lines of code. */
export const ADAPTER_TARGETS = {
  'packages/adapter-express/src/index.ts': 60,
  'packages/adapter-fastify/src/index.ts': 90,
  'packages/adapter-hono/src/index.ts': 30,
};

/** Private packages that hold only tests and their data. */
const TEST_PACKAGES = new Set(['test-utils', 'test-vectors']);
const SOURCE = /\.(ts|tsx|mts)$/;
const NOT_MEASURED = /(\.test\.tsx?$|\.d\.ts$|\/test\/|\/dist\/|\/node_modules\/)/;

/** Every measured source file under `dir`, pushed onto `files`. */
function walk(dir, files) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') walk(path, files);
    } else if (SOURCE.test(name) && !NOT_MEASURED.test(path)) files.push(path);
  }
}

/** Every measured source file under `packages/<name>/src` and `packages/dashboard/app/src`. */
export function sourceFiles(root) {
  const files = [];
  const packages = join(root, 'packages');
  for (const name of readdirSync(packages)) {
    if (TEST_PACKAGES.has(name)) continue;
    for (const sub of ['src', 'app/src']) {
      const dir = join(packages, name, sub);
      try {
        if (statSync(dir).isDirectory()) walk(dir, files);
      } catch {}
    }
  }
  return files.map((path) => relative(root, path)).sort();
}

/** Every measured file of the shared suites, `packages/test-utils/src` (its own tests left out). */
export function testUtilsFiles(root) {
  const files = [];
  walk(join(root, 'packages', 'test-utils', 'src'), files);
  return files.map((path) => relative(root, path)).sort();
}

/** Lines of code: blank lines and lines that hold only a comment are not counted. */
export function linesOfCode(text) {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const code = new Set();
  const visit = (node) => {
    const children = node.getChildren(source);
    if (children.length === 0 && node.kind !== ts.SyntaxKind.SyntaxList) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (node.kind !== ts.SyntaxKind.EndOfFileToken)
        for (let line = start; line <= end; line++) code.add(line);
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return code.size;
}

function functionName(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

/** Every function longer than the limit, in lines from its first to its last line. */
export function longFunctions(path, text, limit = FUNCTION_LIMIT) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) found.push({ name: functionName(node, source), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The faults of `paths` against one pair of limits, minus the named exceptions. */
function faultsOf(root, paths, exceptions, fileLimit, functionLimit) {
  const faults = [];
  for (const path of paths) {
    const text = readFileSync(join(root, path), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > fileLimit && !exceptions.files[path]) {
      faults.push(`${path}: ${lines} lines (at most ${fileLimit})`);
    }
    for (const fn of longFunctions(path, text, functionLimit)) {
      if (exceptions.functions[`${path}#${fn.name}`]) continue;
      faults.push(`${path}:${fn.line}: function ${fn.name} is ${fn.lines} lines (at most ${functionLimit})`);
    }
  }
  return faults;
}

/** All size faults of the tree at `root`, minus the named exceptions. */
export function sizeFaults(root, exceptions) {
  const faults = [
    ...faultsOf(root, sourceFiles(root), exceptions, FILE_LIMIT, FUNCTION_LIMIT),
    ...faultsOf(root, testUtilsFiles(root), exceptions, TEST_UTILS_FILE_LIMIT, TEST_UTILS_FUNCTION_LIMIT),
  ];
  for (const [path, target] of Object.entries(ADAPTER_TARGETS)) {
    const count = linesOfCode(readFileSync(join(root, path), 'utf8'));
    if (count > target) faults.push(`${path}: ${count} lines of code (the adapter's target is ${target})`);
  }
  return faults;
}
