/** What the dashboard calls the signed-in organization. */
import type { Me } from './types.js';

/** The organization's name, or its slug or id when it has none. */
export const organizationName = (me: Me) =>
  me.organization.name || me.organization.slug || me.organization.id;
