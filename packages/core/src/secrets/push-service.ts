/**
 * A signed push, decided: the device and signature checks, the conflict mode, the values sealed at
 * rest, and one unit of work that uses up the nonce and applies every change (or records the
 * conflict). Every refusal is recorded here, where it is decided. The route only hands the request
 * over and answers the outcome.
 */
import { eventDraft } from '../activity/event-types/index.js';
import { sealCommitted } from '../activity/sequencer.js';
import { actorOf, type Principal } from '../auth/permissions.js';
import { isLatchkeyError, LatchkeyError } from '../errors/latchkey-error.js';
import type { Keyring } from '../keyring/keyring.js';
import type { Device, Environment, Organization, Project } from '../model/model.js';
import type { PushEventTemplate } from '../model/push-event.js';
import type { ConflictRecord, PushChange } from '../model/push-plan.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { CoreLogger } from '../runtime/logger.js';
import type { PushBodyInput } from '../schemas/api.js';
import type { ApplyPushResult } from '../store/ports/secrets.js';
import type { LatchkeyStore } from '../store/types.js';
import { pushMode, signedBy } from './push-checks.js';
import { pushEvent } from './push-event.js';
import { policyBypass } from './push-policy.js';
import { sealSecretValue } from './values.js';

/** What a push needs from the core. */
export interface PushServices {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  /** Accepted distance between `signed_at` and now, in seconds. */
  signatureToleranceSeconds: number;
  /** Seals the values at rest when the host supplies one. */
  keyring: Keyring | undefined;
  /** How many versions of each key keep their value. Default `DEFAULT_SECRET_VERSIONS_KEPT`. */
  secretVersionsKept?: number;
  /** Draws the id of the push's event. */
  ids: IdGenerator;
  /** Told when a refusal could not be recorded (the refusal is answered all the same). */
  logger: CoreLogger;
}

/** A push as the route hands it over: the validated body, the JSON it was signed as, and where. */
export interface SignedPush {
  body: PushBodyInput;
  /** The body as parsed JSON, before validation: what `client_sig` covers. */
  signed: Record<string, unknown>;
  principal: Principal;
  organization: Organization;
  project: Project;
  environment: Environment;
  /** ISO time of the request. */
  at: string;
  /**
   * The device the body names, when it was read with the request's records; used when its id is
   * the body's `device_id`, else the device is read here.
   */
  device?: Device | null | undefined;
}

/** An applied push: each key's new version and the id of the event that records it. */
export interface PushApplied {
  versions: { key: string; version: number }[];
  eventId: string;
}

/**
 * Applies a signed push, all changes or none. Refusals are thrown as `LatchkeyError`s: the checks'
 * 401/403/400/428, `push_replayed` (409) for a used nonce, and `version_conflict` (409, with
 * `conflicts`). Each is recorded before it is thrown: the conflict as `push_conflict` in the unit
 * of work that used up the nonce, every other refusal as `push_rejected` on its own (its unit of
 * work wrote nothing). A store that cannot serve is not a refusal, and is not recorded.
 */
export async function applySignedPush(services: PushServices, push: SignedPush): Promise<PushApplied> {
  const base = eventBase(services, push);
  let outcome: PushApplied | { conflicts: ConflictRecord[] };
  try {
    outcome = await decidePush(services, push, base);
  } catch (error) {
    if (isLatchkeyError(error) && error.code !== 'service_unavailable') {
      await recordRefusal(services, push.organization.id, base, error);
    }
    throw error;
  }
  if ('conflicts' in outcome) {
    throw new LatchkeyError(
      'version_conflict',
      `${outcome.conflicts.length} key(s) changed since your if_version; pull, merge and push again.`,
      { extra: { conflicts: outcome.conflicts } },
    );
  }
  return outcome;
}

/** The push's checks, then its unit of work; the conflicts when it applied nothing. */
async function decidePush(
  services: PushServices,
  push: SignedPush,
  base: EventBase,
): Promise<PushApplied | { conflicts: ConflictRecord[] }> {
  const { body, organization, environment } = push;
  const { device, address, nowMs, nonceExpiresAt } = await signedBy(services, push, 'push');
  const template = { ...base, mode: pushMode(body, environment, push.principal, address) };
  const bypass = policyBypass(body.bypass_reason, environment, push.principal, address);
  const changes: PushChange[] = body.changes.map((c) => ({
    key: c.key,
    // Sealed at rest when the host supplies a keyring, bound to this environment and key.
    value:
      c.delete || c.value === undefined
        ? null
        : sealSecretValue(services.keyring, environment.id, c.key, c.value),
    if_version: c.if_version,
  }));
  const nonce = { value: body.nonce, expiresAt: nonceExpiresAt, nowMs };
  const result = await commitPush(services, push, device, changes, template, nonce, bypass);
  if (result === null) {
    throw new LatchkeyError(
      'push_replayed',
      'This nonce was already used; sign the push again with a new nonce.',
    );
  }
  if (!result.ok) return { conflicts: result.conflicts };
  // A store that sequences in batches left the event pending: answer once it is sealed, so a read
  // after the answer sees it. The push is applied and durable already: when the seal cannot run (the
  // database became unreachable right after the commit), it still answers as applied, and the event
  // is sealed by the organization's next seal or the store's sweep (a refusal would invite a retry
  // that applies the change twice).
  if (result.pending) {
    await sealCommitted(services.store, services.store.activity, organization.id, result.stored).catch(
      () => undefined,
    );
  }
  return { versions: result.versions, eventId: result.event.id };
}

/**
 * One unit of work: the nonce, every version and the push's event, or the nonce and the conflict's
 * event. Null when the nonce was used already (nothing is written then).
 */
async function commitPush(
  services: PushServices,
  push: SignedPush,
  device: Device,
  changes: PushChange[],
  template: PushEventTemplate,
  nonce: { value: string; expiresAt: number; nowMs: number },
  bypass: string | null,
): Promise<Exclude<ApplyPushResult, { replayed: true }> | null> {
  const { store, secretVersionsKept } = services;
  const organizationId = push.organization.id;
  return store.transaction(async (tx) => {
    const result = await tx.secrets.applyPush({
      organizationId,
      environmentId: push.environment.id,
      changes,
      force: template.mode.force,
      now: push.at,
      eventTemplate: template,
      versionsKept: secretVersionsKept,
      // Consumed by the same step as the heads' lock (one round trip less on SQL).
      nonce: {
        scope: `${organizationId}/${device.id}`,
        value: nonce.value,
        expiresAt: nonce.expiresAt,
        now: nonce.nowMs,
      },
    });
    if (!result.ok) {
      if (result.replayed) return null;
      const conflict = pushEvent({ ok: false, conflicts: result.conflicts }, template);
      await tx.activity.append(organizationId, conflict);
    } else if (bypass !== null) {
      await tx.activity.append(organizationId, bypassEvent(services.ids, template, bypass, changes));
    }
    return result;
  });
}

/** `change_bypassed`: the push's reason and keys, acted as the push. */
function bypassEvent(
  ids: IdGenerator,
  template: PushEventTemplate,
  reason: string,
  changes: readonly PushChange[],
) {
  const { mode: _mode, change_request: _request, ...base } = template;
  return eventDraft({
    ...base,
    id: ids('evt'),
    type: 'change_bypassed',
    data: { reason, keys: changes.map((c) => c.key) },
  });
}

/** The push's event template but its mode, which the checks decide: what a refusal's event says. */
type EventBase = Omit<PushEventTemplate, 'mode'>;

/** The push's events as far as the request fixes them, before anything is checked. */
function eventBase(services: PushServices, push: SignedPush): EventBase {
  return {
    id: services.ids('evt'),
    occurred_at: push.at,
    organization: push.organization.slug,
    project: push.project.slug,
    environment: push.environment.slug,
    // As every event of a request: acted by the principal (a member, or a workload identity).
    actor: actorOf(push.principal),
    // Validated with the body: the id of the device checked, or of the one that is not enrolled.
    device_id: push.body.device_id,
  };
}

/** Appends `push_rejected` for a refused push; a failure to do so is only logged. */
async function recordRefusal(
  { store, logger }: PushServices,
  organizationId: string,
  base: EventBase,
  error: LatchkeyError,
): Promise<void> {
  try {
    await store.activity.append(
      organizationId,
      eventDraft({ ...base, type: 'push_rejected', data: { reason: error.code, status: error.status } }),
    );
  } catch (appendError) {
    logger.error('could not record a rejected request', {
      error: appendError instanceof Error ? appendError.message : String(appendError),
    });
  }
}
