/**
 * The organization's webhook signing keys: the `whpk_…` public keys receivers of the
 * `standard-webhooks-ed25519` scheme verify with (no secret). Shown once the organization has any.
 */
import { api } from './api.js';
import type { SigningKeys } from './types.js';
import { useRequest } from './use-request.js';

/** The public keys that sign now; `version` changes when a create may have made the first key. */
export function SigningKeysPanel({ org, version }: { org: string; version: number }) {
  const keys = useRequest(
    () => api<SigningKeys>('GET', `${org}/audit-webhooks/signing-keys`),
    `${org} ${version}`,
  );
  const list = keys.data?.signing_keys ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="signing-keys-heading" class="card">
      <h3 id="signing-keys-heading">Signing keys</h3>
      <p class="help">
        Webhooks using the standard-webhooks-ed25519 scheme are signed with these keys. Receivers verify with
        a public key only; during a rotation both keys sign.
      </p>
      <ul class="signing-keys">
        {list.map((key) => (
          <li key={key.id}>
            <code>{key.public_key}</code> <span class="help">{key.status}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
