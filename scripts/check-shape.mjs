#!/usr/bin/env node
// The shape rules of the contributing guide, checked over the tree: file and function sizes, the
// adapters' targets, no import circle inside a package (between files, and between the folders of
// its `src/`), core's folders in their declared layer order, and no relative import from one package
// into another. Prints every fault and exits 1 if there is one.
import { cruiseSources, cycleFaultsOf } from './check-shape/cycles.mjs';
import { exceptions } from './check-shape/exceptions.mjs';
import { folderCycleFaults, unitArrows } from './check-shape/folder-cycles.mjs';
import { CORE_OWN_UNITS, CORE_SOURCE, CORE_UNITS, layerFaults } from './check-shape/layers.mjs';
import { relativeImportFaults } from './check-shape/relative-imports.mjs';
import { sizeFaults } from './check-shape/sizes.mjs';

const root = new URL('..', import.meta.url).pathname;
const cruised = await cruiseSources(root);
const coreArrows = unitArrows(cruised.output.modules, CORE_SOURCE, CORE_OWN_UNITS);
const faults = [
  ...sizeFaults(root, exceptions),
  ...relativeImportFaults(root),
  ...cycleFaultsOf(cruised),
  ...folderCycleFaults(cruised, { [CORE_SOURCE]: CORE_OWN_UNITS }),
  ...layerFaults(coreArrows, CORE_UNITS, CORE_SOURCE),
];
for (const fault of faults) console.error(`✗ ${fault}`);
if (faults.length > 0) {
  console.error(`${faults.length} shape fault(s); see CONTRIBUTING.md`);
  process.exit(1);
}
console.log(
  'shape: sizes within their limits, no import cycles between files or folders, core in its layer order, no relative import across packages',
);
