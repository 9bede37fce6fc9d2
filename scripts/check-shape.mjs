#!/usr/bin/env node
// The shape rules of the contributing guide, checked over the tree: file and function sizes, the
// adapters' targets, no import circle inside a package and no relative import from one package into
// another. Prints every fault and exits 1 if there is one.
import { cycleFaults } from './check-shape/cycles.mjs';
import { exceptions } from './check-shape/exceptions.mjs';
import { relativeImportFaults } from './check-shape/relative-imports.mjs';
import { sizeFaults } from './check-shape/sizes.mjs';

const root = new URL('..', import.meta.url).pathname;
const faults = [...sizeFaults(root, exceptions), ...relativeImportFaults(root), ...(await cycleFaults(root))];
for (const fault of faults) console.error(`✗ ${fault}`);
if (faults.length > 0) {
  console.error(`${faults.length} shape fault(s); see CONTRIBUTING.md`);
  process.exit(1);
}
console.log('shape: sizes within their limits, no import cycles, no relative import across packages');
