// Writes the OpenAPI document the core serves to docs/openapi.json (pretty-printed; the snapshot test
// compares it with the served bytes). Run after a deliberate change to the API.
import { writeFileSync } from 'node:fs';
import { createCore } from '@latchkey/core';

const response = await createCore({}).handle({ method: 'GET', url: '/api/v2/openapi.json', headers: {} });
const served =
  typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body as Uint8Array);
writeFileSync(
  new URL('../docs/openapi.json', import.meta.url),
  `${JSON.stringify(JSON.parse(served), null, 2)}\n`,
);
console.log('wrote docs/openapi.json');
