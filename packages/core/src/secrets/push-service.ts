/**
 * A signed push, decided: the device and signature checks, the conflict mode, the values sealed at
 * rest, and one unit of work that uses up the nonce and applies every change (or records the
 * conflict). The route only hands the request over and answers the outcome.
 */
import type { EventData, EventType } from '../activity/event-types/index.js';
import { sealCommitted } from '../activity/sequencer.js';
import type { Principal } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Keyring } from '../keyring/keyring.js';
import type { ActivityDraft, Device, Environment, Organization, Project } from '../model/model.js';
import type { PushChange } from '../model/push-plan.js';
import type { PushBodyInput } from '../schemas/api.js';
import type { ApplyPushInput, ApplyPushResult } from '../store/ports/secrets.js';
import type { LatchkeyStore } from '../store/types.js';
import { checkPushSignature, type PushMode, pushingDevice, pushMode } from './push-checks.js';
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
  /** Makes the request's activity events (the route context's `event`). */
  event<T extends EventType>(type: T, data: EventData<T>, extra?: Partial<ActivityDraft>): ActivityDraft;
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
 * `conflicts`) whose `recorded` is true: its `push_conflict` event was appended with the nonce.
 */
export async function applySignedPush(services: PushServices, push: SignedPush): Promise<PushApplied> {
  const { body, organization, environment } = push;
  const device = await pushingDevice(
    services.store,
    organization.id,
    body.device_id,
    push.principal.user,
    push.device,
  );
  const nowMs = services.now();
  const tolerance = services.signatureToleranceSeconds;
  const address = {
    organization: organization.slug,
    project: push.project.slug,
    environment: environment.slug,
  };
  checkPushSignature(device.public_key, body, push.signed, address, nowMs, tolerance);
  const mode = pushMode(body, environment, push.principal, address);
  const changes: PushChange[] = body.changes.map((c) => ({
    key: c.key,
    // Sealed at rest when the host supplies a keyring, bound to this environment and key.
    value:
      c.delete || c.value === undefined
        ? null
        : sealSecretValue(services.keyring, environment.id, c.key, c.value),
    if_version: c.if_version,
  }));
  // Kept past the whole window in which signed_at is acceptable, so the nonce can never be used twice.
  const nonce = { value: body.nonce, expiresAt: (body.signed_at + tolerance) * 1000 + 60_000, nowMs };
  const result = await commitPush(services, push, device, changes, mode, nonce);
  if (result === null) {
    throw new LatchkeyError(
      'push_replayed',
      'This nonce was already used; sign the push again with a new nonce.',
    );
  }
  if (!result.ok) {
    throw new LatchkeyError(
      'version_conflict',
      `${result.conflicts.length} key(s) changed since your if_version; pull, merge and push again.`,
      { extra: { conflicts: result.conflicts }, recorded: true },
    );
  }
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
  { store, secretVersionsKept }: PushServices,
  push: SignedPush,
  device: Device,
  changes: PushChange[],
  mode: PushMode,
  nonce: { value: string; expiresAt: number; nowMs: number },
): Promise<Exclude<ApplyPushResult, { replayed: true }> | null> {
  const organizationId = push.organization.id;
  return store.transaction(async (tx) => {
    const result = await tx.secrets.applyPush({
      organizationId,
      environmentId: push.environment.id,
      changes,
      force: mode.force,
      now: push.at,
      event: appliedEvent(push, device, mode),
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
      const data = { conflict_mode: conflictMode(mode), conflicts: result.conflicts };
      await tx.activity.append(organizationId, push.event('push_conflict', data, { device_id: device.id }));
    }
    return result;
  });
}

/**
 * The `event` of the store's `applyPush` input: the store calls it inside its transaction with the
 * plan it made under its lock, since only that plan knows the versions the event must name.
 */
function appliedEvent(push: SignedPush, device: Device, mode: PushMode): ApplyPushInput['event'] {
  const conflict_mode = conflictMode(mode);
  const extra = { device_id: device.id };
  if (mode.force) {
    return (plan) =>
      push.event(
        'push_force_overwrite',
        {
          conflict_mode,
          // The same records as a 409's `conflicts[]`, one per key written, plus the version the
          // push wrote, so the log says what each overwrite replaced and with what.
          keys: plan.overwritten.map((record, i) => ({
            ...record,
            new_version: plan.writes[i]!.version,
            deleted: plan.writes[i]!.value === null,
          })),
        },
        extra,
      );
  }
  return (plan) =>
    push.event(
      'push_applied',
      {
        conflict_mode,
        versions: plan.writes.map((w) => ({ key: w.key, version: w.version, deleted: w.value === null })),
      },
      extra,
    );
}

function conflictMode(mode: PushMode): 'strict' | 'lenient' {
  return mode.strict ? 'strict' : 'lenient';
}
