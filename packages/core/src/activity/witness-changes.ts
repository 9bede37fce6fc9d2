/**
 * Registering and removing the transparency log's witnesses: a witness's key is checked as strictly
 * as a device's, the organization's bound is checked in the same atomic step as the insert, and each
 * change is recorded (`witness_added`, `witness_removed`) in the same unit of work.
 */

import { fromBase64 } from '../encoding/base64.js';
import { keyRefusal } from '../encoding/key-refusal.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { type Limits, refuseUncreated } from '../model/limits.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore, Witness } from '../store/types.js';
import { type Acting, actingEvent } from './acting.js';
import type { AuditKey } from './checkpoint/checkpoint.js';
import { requireAuditKey } from './checkpoint/require-audit-key.js';
import { isWeakEd25519Key } from './note/strict-ed25519.js';
import { recordChange } from './record-change.js';
import { toWitnessView, witnessPublicKey } from './witness-keys.js';

/** What the witness changes use of the core. */
export interface WitnessDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
  /** The key that signs checkpoints; without it there is no tree head to witness. */
  auditKey: AuditKey | undefined;
  /** The per-organization bound on witnesses. */
  limits: Pick<Limits, 'witnessesPerOrganization'>;
}

/** The witness's key as stored (raw, standard base64), or a 400 naming `body.public_key`. */
async function acceptedKey(name: string, input: string): Promise<string> {
  const publicKey = await witnessPublicKey(name, input);
  if (!publicKey) {
    throw new LatchkeyError('invalid_request', 'The public key is not a witness key.', {
      details: [
        {
          path: 'body.public_key',
          message:
            'raw 32-byte Ed25519 key in standard base64, or a verifier key <name>+<hash>+<base64(0x04 || key)> of this name',
        },
      ],
    });
  }
  // The device-key check: a small-order key would make a forged cosignature verify.
  if (isWeakEd25519Key(fromBase64(publicKey)!)) throw keyRefusal('weak_key');
  return publicKey;
}

/** The data of a witness's events: its name and key in both forms. */
async function witnessData(witness: Witness) {
  const view = await toWitnessView(witness);
  return { name: view.name, public_key: view.public_key, verifier_key: view.verifier_key };
}

/**
 * Registers witness `input.name` with key `input.public_key` (raw or its verifier key). Refusals:
 * 404 without an audit key, 400 for a key refused, 409 `already_exists` for a name or key taken, 409
 * `limit_exceeded` past `limits.witnessesPerOrganization`.
 */
export async function addWitness(
  deps: WitnessDeps,
  acting: Acting,
  input: { name: string; public_key: string },
): Promise<Witness> {
  requireAuditKey(deps);
  const witness: Witness = {
    organization_id: acting.organization.id,
    name: input.name,
    public_key: await acceptedKey(input.name, input.public_key),
    created_at: acting.at,
  };
  const data = await witnessData(witness);
  const max = deps.limits.witnessesPerOrganization;
  await recordChange(
    deps.store,
    acting.organization.id,
    async (tx) =>
      refuseUncreated(
        await tx.witnesses.add(witness, max),
        'A witness of that name or public key is registered.',
        `An organization may register at most ${max} witnesses (limits.witnessesPerOrganization): remove one first.`,
      ),
    () => actingEvent(deps.ids, acting, 'witness_added', data),
  );
  return witness;
}

/** Removes witness `name` and the cosignatures it sent; 404 `not_found` when there is none. */
export async function removeWitness(
  deps: Pick<WitnessDeps, 'store' | 'ids'>,
  acting: Acting,
  name: string,
): Promise<Witness> {
  const removed = await recordChange(
    deps.store,
    acting.organization.id,
    async (tx) => {
      const witness = await tx.witnesses.remove(acting.organization.id, name);
      if (!witness) throw new LatchkeyError('not_found', 'No such witness.');
      return { witness, data: await witnessData(witness) };
    },
    ({ data }) => actingEvent(deps.ids, acting, 'witness_removed', data),
  );
  return removed.witness;
}
