/**
 * Add a webhook: a name and an `https` endpoint URL, checked here with a clear message before the
 * server checks them again (its answer, e.g. an address that is not public, is shown as it comes).
 */
import type { AuditWebhookWithSecret, SignatureScheme } from './types.js';
import { useCreateWebhook } from './use-create-webhook.js';

/** The create form; `onCreated` gets the new webhook with its signing secret. */
export function CreateWebhookForm({
  org,
  onCreated,
}: {
  org: string;
  onCreated(webhook: AuditWebhookWithSecret): void;
}) {
  const { name, setName, url, setUrl, scheme, setScheme, errors, busy, submit } = useCreateWebhook(
    org,
    onCreated,
  );
  return (
    <section aria-labelledby="create-heading" class="card">
      <h3 id="create-heading">Add a webhook</h3>
      <form onSubmit={submit} noValidate class="create-form">
        <div class="field">
          <label for="webhook-name">Name</label>
          <input
            id="webhook-name"
            value={name}
            maxLength={100}
            autoComplete="off"
            aria-invalid={errors.name ? 'true' : undefined}
            aria-describedby={errors.name ? 'webhook-name-error' : undefined}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          {errors.name && (
            <p id="webhook-name-error" class="field-error">
              {errors.name}
            </p>
          )}
        </div>
        <div class="field grow">
          <label for="webhook-url">Endpoint URL</label>
          <input
            id="webhook-url"
            value={url}
            inputMode="url"
            placeholder="https://example.com/webhooks/latchkey"
            autoComplete="off"
            spellcheck={false}
            aria-invalid={errors.url ? 'true' : undefined}
            aria-describedby={errors.url ? 'webhook-url-error' : 'webhook-url-help'}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
          {errors.url ? (
            <p id="webhook-url-error" class="field-error">
              {errors.url}
            </p>
          ) : (
            <p id="webhook-url-help" class="help">
              An https:// address that reaches a public server.
            </p>
          )}
        </div>
        <div class="field">
          <label for="webhook-scheme">Signature scheme</label>
          <select
            id="webhook-scheme"
            value={scheme}
            aria-describedby="webhook-scheme-help"
            onChange={(e) => setScheme(e.currentTarget.value as SignatureScheme)}
          >
            <option value="latchkey">Latchkey (X-Service-Signature)</option>
            <option value="standard-webhooks">Standard Webhooks (shared secret)</option>
            <option value="standard-webhooks-ed25519">Standard Webhooks Ed25519 (public key)</option>
          </select>
          <p id="webhook-scheme-help" class="help">
            Ed25519: receivers verify with the organization’s public key and hold no secret.
          </p>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create webhook'}
        </button>
      </form>
      {errors.form && (
        <p class="field-error" role="alert">
          {errors.form}
        </p>
      )}
    </section>
  );
}
