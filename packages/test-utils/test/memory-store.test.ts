import { createMemoryStore } from '@latchkey/core';
import { describeStoreConformance } from '../src/index.js';

describeStoreConformance({ name: 'memory', create: async () => createMemoryStore() });
