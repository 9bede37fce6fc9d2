/**
 * The parts of the core the organization's services use. Each service names the few it needs (a
 * `Pick` of these), so the HTTP layer hands over its dependencies and never its context.
 */
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';

/** What the services of `organizations/` may use of the core. */
export interface OrganizationDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
}
