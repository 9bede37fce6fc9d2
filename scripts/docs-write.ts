// Writes the documentation pages generated from code (docs/event-types.md, docs/errors.md); the
// docs-pages test fails while a committed page differs from what this would write. Run after a
// change to the event-type catalog or the error table.
import { writeFileSync } from 'node:fs';
import { generatedPages } from './docs/pages.js';

for (const page of await generatedPages()) {
  writeFileSync(new URL(`../${page.path}`, import.meta.url), page.text);
  console.log(`wrote ${page.path}`);
}
