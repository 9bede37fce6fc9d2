/**
 * Add a webhook: a name and an `https` endpoint URL, checked here with a clear message before the
 * server checks them again (its answer, e.g. an address that is not public, is shown as it comes).
 */
import { useState } from 'preact/hooks';
import { type ApiError, api } from './api.js';
import type { AuditWebhook } from './types.js';

type Created = AuditWebhook & { signing_secret: string };

/** Why the URL cannot be used, or null. */
export function urlProblem(value: string): string | null {
  if (!value) return 'Enter the endpoint URL.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, such as https://example.com/webhooks/latchkey.';
  }
  if (url.protocol !== 'https:')
    return 'The endpoint URL must start with https:// (deliveries are sent over TLS only).';
  if (url.username || url.password) return 'The endpoint URL must not contain a user name or password.';
  if (value.length > 2048) return 'The endpoint URL must be at most 2,048 characters.';
  return null;
}

export function CreateWebhookForm({ org, onCreated }: { org: string; onCreated(webhook: Created): void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<{ name?: string; url?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = {
      ...(name.trim() ? {} : { name: 'Enter a name for the webhook.' }),
      ...(name.trim().length > 100 ? { name: 'The name must be at most 100 characters.' } : {}),
      ...(urlProblem(url.trim()) ? { url: urlProblem(url.trim())! } : {}),
    };
    setErrors(found);
    if (found.name || found.url) {
      document.getElementById(found.name ? 'webhook-name' : 'webhook-url')?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await api<Created>('POST', `${org}/audit-webhooks`, {
        name: name.trim(),
        url: url.trim(),
      });
      setName('');
      setUrl('');
      onCreated(created);
    } catch (error) {
      const e = error as ApiError;
      setErrors(/url/.test(e.message) && e.status === 400 ? { url: e.message } : { form: e.message });
    } finally {
      setBusy(false);
    }
  };

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
