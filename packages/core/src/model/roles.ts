/** The roles of an organization's members and a grant's reach: what a membership record names. */

/** The four organization roles. */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** A grant of a developer or viewer on one project: `environments` lists slugs, or `["*"]` for all. */
export interface Grant {
  project: string;
  environments: string[];
}
