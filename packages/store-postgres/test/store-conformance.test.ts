import { describeStoreConformance } from '@latchkey/test-utils';
import { onPostgres, pgliteStore, postgresStore } from './databases.js';

describeStoreConformance({ name: 'PGlite (in memory)', create: pgliteStore });

onPostgres('store conformance: PostgreSQL', () =>
  describeStoreConformance({ name: 'PostgreSQL', create: () => postgresStore() }),
);
