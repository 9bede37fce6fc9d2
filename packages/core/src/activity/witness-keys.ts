/**
 * A witness's public key as the API takes it (raw Ed25519 in base64, or its C2SP verifier key for
 * cosignatures) and as it shows it (both).
 */

import { fromBase64, toBase64 } from '../encoding/base64.js';
import type { Witness } from '../store/types.js';
import { ALG_COSIGNATURE_V1, parseVerifierKey, verifierKey } from './note/note-key.js';

/**
 * The raw public key (standard base64) of `input` for the witness `name`; null when `input` is
 * neither 32 bytes of base64 nor a cosignature verifier key (algorithm 0x04) under that name.
 */
export async function witnessPublicKey(name: string, input: string): Promise<string | null> {
  if (input.includes('+') && input.startsWith(`${name}+`)) {
    const parsed = await parseVerifierKey(input, [ALG_COSIGNATURE_V1]);
    return parsed && parsed.name === name ? toBase64(parsed.publicKey) : null;
  }
  const raw = fromBase64(input);
  return raw && raw.length === 32 ? input : null;
}

/** The API's view of a witness: its key in both forms. */
export async function toWitnessView(witness: Witness): Promise<{
  name: string;
  public_key: string;
  verifier_key: string;
  created_at: string;
}> {
  return {
    name: witness.name,
    public_key: witness.public_key,
    verifier_key: await verifierKey(witness.name, fromBase64(witness.public_key)!, ALG_COSIGNATURE_V1),
    created_at: witness.created_at,
  };
}
