import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedPages } from '../docs/pages.js';

// docs/event-types.md and docs/errors.md are generated from the event-type catalog and the error
// table. Like docs/openapi.json, they are committed so a change shows up in review as a diff; this
// fails while one is stale.
describe('the generated documentation pages', async () => {
  const pages = await generatedPages();

  it.each(pages.map((page) => [page.path, page.text] as const))('%s is up to date', (path, text) => {
    const committed = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    expect(committed === text, `${path} is stale: run \`npm run docs:write\` and commit it`).toBe(true);
  });

  it('lists every error code and every event type', () => {
    const [events, errors] = pages.map((page) => page.text);
    expect(errors).toContain('| `version_conflict` | 409 |');
    expect(errors).toContain('| `service_unavailable` | 503 |');
    expect(events).toContain('### push_applied');
    expect(events).toContain('- `conflict_mode`: `"strict"` \\| `"lenient"`');
  });
});
