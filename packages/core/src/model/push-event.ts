/**
 * What a push's event needs besides its plan: the template the push service fixes before its unit of
 * work, which the store completes with `pushEvent` (in `secrets/push-event.ts`).
 */
import type { Actor } from './model.js';

/** How a push treats keys changed since its `if_version`s. */
export interface PushMode {
  /** Strict: every change names its `if_version`. */
  strict: boolean;
  /** Overwrite whatever changed meanwhile (lenient mode only; needs `secrets:force_overwrite`). */
  force: boolean;
}

/** What a push's event needs besides the plan: who pushed, where, when, from which device, how. */
export interface PushEventTemplate {
  /** The event's id: whichever event records the push (applied, conflict or refusal) takes it. */
  id: string;
  /** ISO time of the request. */
  occurred_at: string;
  /** Slugs of the organization, project and environment pushed to. */
  organization: string;
  project: string;
  environment: string;
  actor: Actor;
  /** The signing device. */
  device_id: string;
  mode: PushMode;
  /** When the push applies a change request: the request and the approvers its `push_applied` names. */
  change_request?: { id: string; approvers: string[] } | undefined;
}
