/** Event types of an organization's structure and people: projects, environments, members, tokens, devices. */
import { z } from 'zod';
import { ApprovalPolicyData } from './changes.js';
import { portalEventTypes } from './portal.js';
import { Count, entry, Grant, Role, Slug } from './shared.js';
import { workloadEventTypes } from './workload.js';

export const organizationEventTypes = {
  organization_created: entry(
    'An organization was created (the first event of its chain)',
    z.strictObject({ organization: Slug, name: z.string() }),
  ),
  project_created: entry('A project was created', z.strictObject({ project: Slug })),
  environment_created: entry(
    'An environment was created in a project',
    z.strictObject({ require_strict_conflict_mode: z.boolean() }),
  ),
  environment_updated: entry(
    "An environment's settings were changed (an approval policy with the old and the new one)",
    z.strictObject({
      require_strict_conflict_mode: z.boolean(),
      approval_policy: z
        .strictObject({ from: ApprovalPolicyData.nullable(), to: ApprovalPolicyData.nullable() })
        .optional(),
    }),
  ),
  member_added: entry(
    'A member was added to the organization',
    z.strictObject({ user: z.string(), role: Role, grants: z.array(Grant) }),
  ),
  member_updated: entry(
    "A member's role or grants were changed",
    z.strictObject({
      user: z.string(),
      role: z.strictObject({ from: Role, to: Role }),
      grants: z.strictObject({ from: z.array(Grant), to: z.array(Grant) }),
    }),
  ),
  member_removed: entry(
    'A member was removed; their tokens and devices were revoked with them',
    z.strictObject({ user: z.string(), role: Role, tokens_revoked: Count, devices_revoked: Count }),
  ),
  token_created: entry(
    'An API token was created (never its value)',
    z.strictObject({ token_id: z.string(), user: z.string(), name: z.string() }),
  ),
  token_revoked: entry('An API token was revoked', z.strictObject({ token_id: z.string() })),
  device_enrolled: entry(
    "A device's signing key was enrolled (the event's device_id names it)",
    z.strictObject({ name: z.string() }),
  ),
  device_revoked: entry("A device was revoked (the event's device_id names it)", z.strictObject({})),
  ...workloadEventTypes,
  ...portalEventTypes,
};
