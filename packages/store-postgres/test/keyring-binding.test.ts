import type { LatchkeyStore } from '@latchkey/core';
import { describeKeyringBinding } from '@latchkey/test-utils';
import { createPostgresStore } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres, pgliteStore } from './databases.js';

// PGlite is one process's database: its instances share the one store.
describeKeyringBinding({
  name: 'PGlite',
  database: async () => {
    const store = await pgliteStore();
    return { connect: async () => store, close: () => store.close() };
  },
});

// On PostgreSQL each instance has its own pool on the same schema, as separate processes would.
onPostgres('a keyring bound to its data: PostgreSQL', () =>
  describeKeyringBinding({
    name: 'PostgreSQL',
    database: async () => {
      const schema = freshSchema('lk_keyring');
      const opened: LatchkeyStore[] = [];
      return {
        async connect() {
          const store = await createPostgresStore({
            driver: await pgDriver({ connectionString: DATABASE_URL, max: 4 }),
            schema,
          });
          opened.push(store);
          return store;
        },
        async close() {
          for (const store of opened) await store.close?.();
          await dropSchema(schema);
        },
      };
    },
  }),
);
