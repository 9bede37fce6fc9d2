/**
 * The faces of the published packages and the names each exports. A face is one target of a
 * package's exports map under the workspace's source condition (the `browser` condition of an
 * entry is a face of its own); its names are read twice: at run time, by importing the source file
 * (`Object.keys`), and from the TypeScript compiler, which also sees the type-only exports a
 * module object does not carry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** One face: the package's specifier, the condition it is under, and its source file. */
export interface Face {
  /** e.g. `@latchkey/core/client`. */
  specifier: string;
  /** `browser` for an entry's browser condition, otherwise null. */
  condition: string | null;
  /** The source file, relative to the workspace root. */
  file: string;
  /** The snapshot's file name, e.g. `core.client.browser.txt`. */
  snapshot: string;
}

const SOURCE = '@latchkey/source';

/** Every face of every published (non-private) package under `root/packages`. */
export function publishedFaces(root: string): Face[] {
  const faces: Face[] = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
      exports?: Record<string, unknown>;
    };
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== 'object' || target === null) continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const base = [
        manifest.name.replace(/^@latchkey\//, ''),
        ...(subpath === '.' ? [] : [subpath.slice(2)]),
      ];
      const conditions = target as Record<string, unknown>;
      const browser = conditions['browser'] as Record<string, unknown> | undefined;
      for (const [condition, source] of [
        [null, conditions[SOURCE]],
        ['browser', browser?.[SOURCE]],
      ] as const) {
        if (typeof source !== 'string') continue;
        faces.push({
          specifier,
          condition,
          file: join('packages', dir, source),
          snapshot: `${[...base, ...(condition ? [condition] : [])].join('.')}.txt`,
        });
      }
    }
  }
  return faces;
}

/** The names each file exports, types included, by the compiler with the workspace's options. */
export function compiledNames(root: string, files: readonly string[]): Map<string, string[]> {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  const program = ts.createProgram(
    files.map((file) => join(root, file)),
    { ...options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(join(root, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: the compiler found no module`);
    names.set(
      file,
      checker.getExportsOfModule(module).map((symbol) => symbol.name),
    );
  }
  return names;
}

/** The text a face's snapshot holds: its values (what `Object.keys` sees), then its type-only names. */
export function faceText(face: Face, values: readonly string[], all: readonly string[]): string {
  const runtime = new Set(values);
  const types = all.filter((name) => !runtime.has(name));
  const list = (names: readonly string[]) =>
    [...names]
      .sort()
      .map((name) => `  ${name}\n`)
      .join('');
  return [
    `${face.specifier}${face.condition ? ` (${face.condition} condition)` : ''}: ${face.file}\n`,
    `values (${values.length}):\n${list(values)}`,
    `types (${types.length}):\n${list(types)}`,
  ].join('');
}
