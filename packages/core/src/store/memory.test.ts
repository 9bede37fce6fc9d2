import { describeStoreConformance } from '../../test/store-conformance.js';
import { createMemoryStore } from './memory/index.js';

describeStoreConformance('memory', async () => createMemoryStore());
