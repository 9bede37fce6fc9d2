/**
 * Add a webhook: a name and an `https` endpoint URL, checked here with a clear message before the
 * server checks them again (its answer, e.g. an address that is not public, is shown as it comes).
 */
import { SchemePicker } from './scheme-picker.js';
import type { AuditWebhookWithSecret } from './types.js';
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
        <SchemePicker scheme={scheme} onScheme={setScheme} />
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
