import type { StandardSignatures } from './format.js';

/**
 * The Standard Webhooks half that differs between runtimes: importing keys and checking a delivery's
 * signatures over `<prefix><body>`. May be synchronous (node:crypto) or not (Web Crypto).
 * @internal
 */
export interface StandardEngine<S, P> {
  /** The HMAC key of a `whsec_` secret, or null when it is not standard base64 after the prefix. */
  importSecret(secret: string): S | null;
  /** An Ed25519 public key from its `whpk_` form; throws a TypeError for anything else. */
  importPublicKey(key: string): P;
  /** True when one `v1` signature matches one secret or one `v1a` signature one public key. */
  matches(
    secrets: readonly S[],
    publicKeys: readonly P[],
    prefix: string,
    body: string | Uint8Array,
    signatures: StandardSignatures,
  ): boolean | Promise<boolean>;
}
