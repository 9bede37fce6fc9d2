import { describeStoreConformance } from '@latchkey/test-utils';
import { describe, it } from 'vitest';
import { pgliteStore, postgresStore, postgresUnavailable } from './databases.js';

describeStoreConformance({ name: 'PGlite (in memory)', create: pgliteStore });

if (postgresUnavailable === null) {
  describeStoreConformance({ name: 'PostgreSQL', create: () => postgresStore() });
} else {
  describe('store conformance: PostgreSQL', () => {
    it.skip(`needs PostgreSQL at DATABASE_URL: ${postgresUnavailable}`, () => {});
  });
}
