/** Event types of the transparency log's witnesses: who may cosign the organization's tree heads. */
import { z } from 'zod';
import { entry } from './shared.js';

const WitnessFields = z.strictObject({
  name: z.string().describe('the witness key name'),
  public_key: z.string().describe('the raw Ed25519 public key, standard base64 (public, not a secret)'),
  verifier_key: z.string().describe('the C2SP verifier key of its cosignatures (algorithm 0x04)'),
});

export const witnessEventTypes = {
  witness_added: entry(
    'A witness was registered: its cosignatures of tree heads are kept from now on',
    WitnessFields,
  ),
  witness_removed: entry('A witness was removed, with the cosignatures it had sent', WitnessFields),
};
