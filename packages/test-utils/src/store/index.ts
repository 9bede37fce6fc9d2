/**
 * The store suite: the repository contracts every store runs (memory, PGlite, PostgreSQL), and the
 * keyring binding that instances sharing one database must keep.
 */
export {
  describeKeyringBinding,
  type KeyringBindingOptions,
  type SharedDatabase,
} from './keyring-binding.js';
export { describeStoreConformance, type StoreConformanceOptions } from './store-conformance.js';
