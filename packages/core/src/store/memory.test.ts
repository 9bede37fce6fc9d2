import { describeStoreConformance } from '../../test/store-conformance.js';
import { createMemoryStore } from './memory.js';

describeStoreConformance('memory', async () => createMemoryStore());
