/**
 * A push's event as a value. Before its unit of work the push service fixes everything the event
 * says that is not in the plan (the template); the store, holding its lock, passes the plan it made
 * to {@link pushEvent}, as it passes the heads to `planPush`, so no code of the caller runs inside
 * the store's transaction. Pure, and it loads nothing at run time (`@latchkey/core/store` exports it).
 */
import type { EventData } from '../activity/event-types/index.js';
import type { ActivityDraft } from '../model/model.js';
import type { PushEventTemplate } from '../model/push-event.js';
import type { PushPlan } from '../model/push-plan.js';

/**
 * The draft that records a push decided by `plan`: `push_applied` (or `push_force_overwrite` for a
 * forced push) naming each version the plan writes, or `push_conflict` with the plan's conflicts.
 * Its `data` matches the event catalog (a test checks each type against it).
 */
export function pushEvent(plan: PushPlan, template: PushEventTemplate): ActivityDraft {
  const conflict_mode = template.mode.strict ? 'strict' : 'lenient';
  if (!plan.ok) {
    return draft(template, 'push_conflict', { conflict_mode, conflicts: plan.conflicts });
  }
  if (template.mode.force) {
    return draft(template, 'push_force_overwrite', {
      conflict_mode,
      // One conflict record per key written, with the version the push wrote over it.
      keys: plan.overwritten.map((record, i) => ({
        ...record,
        new_version: plan.writes[i]!.version,
        deleted: plan.writes[i]!.value === null,
      })),
    });
  }
  return draft(template, 'push_applied', {
    conflict_mode,
    versions: plan.writes.map((w) => ({ key: w.key, version: w.version, deleted: w.value === null })),
    ...(template.change_request && { change_request: template.change_request }),
  });
}

type PushEventType = 'push_applied' | 'push_force_overwrite' | 'push_conflict';

/** The template's fields in the order every event of a request has them, then type and data. */
function draft<T extends PushEventType>(
  template: PushEventTemplate,
  type: T,
  data: EventData<T>,
): ActivityDraft {
  return {
    id: template.id,
    occurred_at: template.occurred_at,
    organization: template.organization,
    project: template.project,
    environment: template.environment,
    actor: template.actor,
    device_id: template.device_id,
    type,
    data: data as Record<string, unknown>,
  };
}
