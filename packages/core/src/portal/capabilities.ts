/**
 * What a portal session's token may reach: the operations of the sections its capabilities open,
 * and nothing else (no secret values, members, tokens, backups, nor the portal-session routes
 * themselves). The member's own role is checked as for any token, so a session's rights are its
 * capabilities intersected with its member's permissions at every request.
 */
import type { Permission, PortalGrant } from '../auth/permissions.js';
import type { PortalCapability } from '../model/portal-session.js';

/**
 * The operations each capability opens, by `operationId`, each with the capabilities it needs
 * together. Reads of the embedded page itself need no capability.
 */
const OPERATIONS: Readonly<Record<string, readonly PortalCapability[]>> = {
  getMe: [],
  getCurrentPortalSession: [],
  listEventTypes: [],
  getOrganization: [],
  // The names of the projects and environments the member may see: how the sections navigate.
  listProjects: [],
  listEnvironments: [],
  listAuditWebhooks: ['audit_webhooks:read'],
  getAuditWebhook: ['audit_webhooks:read'],
  listAuditWebhookDeliveries: ['audit_webhooks:read'],
  getAuditWebhookMetrics: ['audit_webhooks:read'],
  getAuditWebhookMetricsTimeline: ['audit_webhooks:read'],
  listWebhookSigningKeys: ['audit_webhooks:read'],
  updateAuditWebhook: ['audit_webhooks:manage'],
  disableAuditWebhook: ['audit_webhooks:manage'],
  enableAuditWebhook: ['audit_webhooks:manage'],
  recoverAuditWebhook: ['audit_webhooks:manage'],
  testAuditWebhook: ['audit_webhooks:manage'],
  rotateWebhookSigningKey: ['audit_webhooks:manage'],
  // Both answer a signing secret, shown once.
  createAuditWebhook: ['audit_webhooks:manage', 'audit_webhooks:secrets'],
  rotateAuditWebhookSecret: ['audit_webhooks:manage', 'audit_webhooks:secrets'],
  getOrganizationHistory: ['activity:read'],
  getProjectHistory: ['activity:read'],
  getEnvironmentHistory: ['activity:read'],
  getActivityCheckpoint: ['activity:read'],
  getActivityInclusionProof: ['activity:read'],
  getActivityConsistencyProof: ['activity:read'],
  getActivityEventWithProof: ['activity:read'],
  exportActivity: ['activity:export'],
  // Reviewing, not proposing: making, cancelling and applying a request are a signing device's.
  listChangeRequests: ['changes:review'],
  getChangeRequest: ['changes:review'],
  approveChangeRequest: ['changes:review'],
  rejectChangeRequest: ['changes:review'],
  // A key's versions without their values: whether a request's key moved since it was made.
  listSecretVersions: ['changes:review'],
};

/** Whether a query (decoded) asks for secret values, which a portal token is never shown. */
const asksForValues = (query: Readonly<Record<string, string>>) =>
  query['include_values'] !== undefined && query['include_values'] !== 'false';

/** The operations a portal token may reach, by `operationId` (for tests and the docs). */
export const PORTAL_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

/** Capabilities a capability brings with it: who manages the webhooks also reads them. */
const IMPLIED: Partial<Record<PortalCapability, readonly PortalCapability[]>> = {
  'audit_webhooks:manage': ['audit_webhooks:read'],
};

/**
 * The permission a member's role must hold for a capability to be given to a session acting as
 * them.
 */
export const CAPABILITY_PERMISSION: Readonly<Record<PortalCapability, Permission>> = {
  'audit_webhooks:read': 'audit_webhooks:manage',
  'audit_webhooks:manage': 'audit_webhooks:manage',
  'audit_webhooks:secrets': 'audit_webhooks:manage',
  'activity:read': 'activity:read',
  'activity:export': 'activity:export',
  'changes:review': 'changes:approve',
};

/** The answer of {@link portalAllows}. */
export type PortalDecision = { ok: true } | { ok: false; reason: string };

/**
 * Whether a portal session may call the operation: one its capabilities open, never for secret
 * values, and (for a read-only session) one that changes nothing. `query` is the request's
 * query, decoded. The member's permission is checked apart.
 */
export function portalAllows(
  grant: PortalGrant,
  route: { operationId: string; method: string },
  query: Readonly<Record<string, string>> = {},
): PortalDecision {
  const needs = Object.hasOwn(OPERATIONS, route.operationId) ? OPERATIONS[route.operationId] : undefined;
  if (!needs) return { ok: false, reason: 'This operation is outside the portal session.' };
  const held = new Set(grant.capabilities.flatMap((c) => [c, ...(IMPLIED[c] ?? [])]));
  const missing = needs.find((capability) => !held.has(capability));
  if (missing) return { ok: false, reason: `The portal session lacks the capability ${missing}.` };
  if (asksForValues(query)) return { ok: false, reason: 'A portal session is never shown secret values.' };
  if (grant.readOnly && route.method !== 'GET')
    return { ok: false, reason: 'The portal session is read-only.' };
  return { ok: true };
}
