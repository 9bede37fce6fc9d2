/** Port: the records every authenticated request reads, fetched together. */
import type { ApiToken, Device, Environment, Member, Organization, Project } from '../../model/model.js';

/** What a request names: its token's hash and the slugs of its path. */
export interface RequestKeys {
  tokenHash?: string | undefined;
  organization?: string | undefined;
  project?: string | undefined;
  environment?: string | undefined;
  /** The id of a device, looked up in the `organization` (a push's signing device). */
  device?: string | undefined;
}

/** The records {@link RequestKeys} name; each is null when absent (or when its parent is). */
export interface RequestRecords {
  /** The token with this hash (revoked ones too). */
  token: ApiToken | null;
  /** The member the token belongs to. */
  member: Member | null;
  /** The organization with the `organization` slug. */
  organization: Organization | null;
  /** The project with the `project` slug in that organization. */
  project: Project | null;
  /** The environment with the `environment` slug in that project. */
  environment: Environment | null;
  /**
   * Only when {@link RequestKeys.device} was given: the device with that id in the organization, as
   * `devices.get` would return it.
   */
  device?: Device | null;
}

export interface RequestRepository {
  /**
   * Every record a request names, in one step (one query on SQL): exactly what `tokens.findByHash`,
   * `members.get`, `organizations.getBySlug`, `projects.get` and `environments.get` would return
   * one by one. Core checks them (revoked, other organization, missing) as it does for those calls.
   */
  resolve(keys: RequestKeys): Promise<RequestRecords>;
}
