import { readFileSync } from 'node:fs';
import { createCore } from '@latchkey/core';
import { expect, it } from 'vitest';

// docs/openapi.json is the published API description. The served document must be exactly its
// bytes (compact): a change to the API shows up in review as a diff of this file, and a refactoring
// that changes nothing leaves it alone. After a deliberate change, regenerate it with
// `pnpm openapi:write`.
it('the served OpenAPI document is docs/openapi.json, byte for byte', async () => {
  const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
  const core = createCore({});
  const response = await core.handle({ method: 'GET', url: '/api/v2/openapi.json', headers: {} });
  expect(response.status).toBe(200);
  const served =
    typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body as Uint8Array);
  expect(served).toBe(JSON.stringify(JSON.parse(committed)));
});
