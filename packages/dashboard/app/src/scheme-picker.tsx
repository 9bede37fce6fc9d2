/** The create form's labelled choice of how deliveries are signed. */
import type { SignatureScheme } from './types.js';

/** "Signature scheme": latchkey (default), Standard Webhooks with a secret, or with Ed25519 keys. */
export function SchemePicker({
  scheme,
  onScheme,
}: {
  scheme: SignatureScheme;
  onScheme(scheme: SignatureScheme): void;
}) {
  return (
    <div class="field">
      <label for="webhook-scheme">Signature scheme</label>
      <select
        id="webhook-scheme"
        value={scheme}
        aria-describedby="webhook-scheme-help"
        onChange={(e) => onScheme(e.currentTarget.value as SignatureScheme)}
      >
        <option value="latchkey">Latchkey (X-Service-Signature)</option>
        <option value="standard-webhooks">Standard Webhooks (shared secret)</option>
        <option value="standard-webhooks-ed25519">Standard Webhooks Ed25519 (public key)</option>
      </select>
      <p id="webhook-scheme-help" class="help">
        Ed25519: receivers verify with the organization’s public key and hold no secret.
      </p>
    </div>
  );
}
