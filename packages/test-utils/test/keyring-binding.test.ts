import { createMemoryStore } from '@latchkey/core';
import { describeKeyringBinding } from '../src/index.js';

// One memory store is one database: every instance of a process shares it.
describeKeyringBinding({
  name: 'memory',
  database: async () => {
    const store = createMemoryStore();
    return { connect: async () => store, close: async () => {} };
  },
});
