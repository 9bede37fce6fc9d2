/**
 * What a service of `organizations/` is: a function of the parts of the core it uses, the caller and
 * its input, which decides, records and answers. The HTTP layer hands over its dependencies and the
 * caller, never its request context.
 */
import type { Acting } from '../activity/acting.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';

/** What the services of `organizations/` may use of the core. */
export interface OrganizationDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
}

/**
 * A service of the organization: `input` is what the request asks (its validated body, the id its
 * path names, or both), the result is what the route answers through its view.
 */
export type OrganizationService<Input, Result> = (
  deps: OrganizationDeps,
  acting: Acting,
  input: Input,
) => Promise<Result>;
