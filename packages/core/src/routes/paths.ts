/** The path prefixes the route table shares; their `{…}` segments are resolved before a handler runs. */

/** An organization, by slug: every organization-scoped route starts here. */
export const ORGANIZATION = '/organizations/{organization}';

/** A project of the organization, by slug. */
export const PROJECT = `${ORGANIZATION}/projects/{project}`;

/** An environment of the project, by slug. */
export const ENVIRONMENT = `${PROJECT}/environments/{environment}`;

/** The organization's audit webhooks. */
export const WEBHOOKS = `${ORGANIZATION}/audit-webhooks`;

/** One audit webhook, by id. */
export const WEBHOOK = `${WEBHOOKS}/{auditWebhook}`;
