/**
 * The event template a store conformance test hands to `applyPush`: what a push's event takes from
 * its request (id, time, actor, scope, device, mode), which the store completes from its plan.
 */
import type { PushEventTemplate } from '@latchkey/core/store';

/** A lenient, unforced push by `alice` from `dev_1` to `p`/`prod` of `organization`; `extra` overrides. */
export function pushTemplate(
  id: string,
  organization: string,
  occurredAt: string,
  extra: Partial<PushEventTemplate> = {},
): PushEventTemplate {
  return {
    id,
    occurred_at: occurredAt,
    organization,
    project: 'p',
    environment: 'prod',
    actor: { type: 'user', id: 'alice' },
    device_id: 'dev_1',
    mode: { strict: false, force: false },
    ...extra,
  };
}
