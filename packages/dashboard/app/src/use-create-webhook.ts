/** The create form's state: the fields, their errors, and the request that creates the webhook. */
import { useState } from 'preact/hooks';
import { type ApiError, api } from './api.js';
import type { AuditWebhookWithSecret, SignatureScheme } from './types.js';
import { inputProblems, type WebhookInputErrors } from './webhook-input.js';

/** The fields, what is wrong with them, whether the request is under way, and the submit handler. */
export function useCreateWebhook(org: string, onCreated: (webhook: AuditWebhookWithSecret) => void) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [scheme, setScheme] = useState<SignatureScheme>('latchkey');
  const [errors, setErrors] = useState<WebhookInputErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = inputProblems(name, url);
    setErrors(found);
    if (found.name || found.url) {
      document.getElementById(found.name ? 'webhook-name' : 'webhook-url')?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await api<AuditWebhookWithSecret>('POST', `${org}/audit-webhooks`, {
        name: name.trim(),
        url: url.trim(),
        ...(scheme === 'latchkey' ? {} : { signature_scheme: scheme }),
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

  return { name, setName, url, setUrl, scheme, setScheme, errors, busy, submit };
}
