// No import circle between the folders of a package, at any depth: inside each folder of a `src/`
// (`src/` itself included), each module counts as the child it sits in (a subfolder, or a file
// directly in that folder, a unit of its own), and the arrows between those units must form no
// circle. The file rule (cycles.mjs) lets `a/x -> b/y -> a/z` through, yet it
// makes `a/` and `b/` one unit all the same: neither can be read, or moved into an entry point,
// without the other. Type imports count, as they do for files.
//
// A file may be declared a unit of its own (`ownUnits`): an entry file that sits inside the folder it
// re-exports would otherwise make that folder import everything above it. Core keeps its entries in
// `faces/`, so it declares none today.

/** The unit of `module` (a path relative to the root) in `folder`, or null when it is outside it. */
export function unitOf(module, folder, ownUnits = []) {
  if (!module.startsWith(`${folder}/`)) return null;
  const rest = module.slice(folder.length + 1);
  if (ownUnits.includes(rest)) return rest;
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/**
 * The arrows between the units of `folder`: a map from `from -> to` to the imports that make it
 * (`file -> file`, relative to the folder), in the order the cruise met them.
 */
export function unitArrows(modules, folder, ownUnits = []) {
  const arrows = new Map();
  for (const module of modules) {
    const from = unitOf(module.source, folder, ownUnits);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = unitOf(dependency.resolved, folder, ownUnits);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!arrows.has(key)) arrows.set(key, []);
      const at = folder.length + 1;
      arrows.get(key).push(`${module.source.slice(at)} -> ${dependency.resolved.slice(at)}`);
    }
  }
  return arrows;
}

/** The strongly connected parts of a graph with more than one node, each sorted (Tarjan). */
export function circles(nodes, next) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node), low.get(other)));
      } else if (onStack.has(other)) {
        low.set(node, Math.min(low.get(node), index.get(other)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

/** `source` and every folder beneath it that holds a module, sorted. */
function foldersUnder(modules, source) {
  const found = new Set([source]);
  for (const { source: module } of modules) {
    if (!module.startsWith(`${source}/`)) continue;
    const parts = module.split('/');
    for (let end = source.split('/').length + 1; end < parts.length; end++) {
      found.add(parts.slice(0, end).join('/'));
    }
  }
  return [...found].sort();
}

/**
 * One fault per circle between the units of a package source folder or of any folder beneath it,
 * naming every arrow inside the circle with the first import that makes it. `ownUnits` maps a
 * source folder to its files that count as units of their own.
 */
export function folderCycleFaults({ folders, output }, ownUnits = {}) {
  const faults = [];
  for (const folder of folders.flatMap((source) => foldersUnder(output.modules, source))) {
    const arrows = unitArrows(output.modules, folder, ownUnits[folder]);
    const nodes = new Set([...arrows.keys()].flatMap((key) => key.split(' -> ')));
    const next = (node) =>
      [...arrows.keys()].filter((key) => key.startsWith(`${node} -> `)).map((key) => key.split(' -> ')[1]);
    for (const part of circles(nodes, next)) {
      const inside = [...arrows.entries()].filter(([key]) =>
        key.split(' -> ').every((u) => part.includes(u)),
      );
      const lines = inside.map(([key, imports]) => `    ${key} (${imports.length}: ${imports[0]})`);
      faults.push(`folder circle in ${folder}: ${part.join(', ')}\n${lines.join('\n')}`);
    }
  }
  return faults;
}
