/**
 * A host app's own authentication (core option `authenticate`): it reads the request and vouches
 * for an organization and a user, whom the core then looks up as a member.
 */
import type { CoreRequest } from '../model/core-request.js';

/** What a host app's own authentication returns: the organization and user it vouches for. */
export interface ExternalIdentity {
  /** Organization slug. */
  organization: string;
  /** User identifier; must be a member of the organization. */
  user: string;
}

/** The host app's own authentication of a request: who it vouches for, or null for nobody. */
export type HostAuthenticate = (
  request: CoreRequest,
) => Promise<ExternalIdentity | null> | ExternalIdentity | null;
