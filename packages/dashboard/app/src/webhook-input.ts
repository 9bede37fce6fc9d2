/**
 * The checks of a new webhook's name and URL, made here with a clear message before the server
 * makes them again.
 */

/** What is wrong with the fields of the create form, per field. */
export interface WebhookInputErrors {
  name?: string;
  url?: string;
  form?: string;
}

/** Why the URL cannot be used, or null. */
function urlProblem(value: string): string | null {
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

/** The problems of a name and a URL as typed (empty: both can be sent). */
export function inputProblems(name: string, url: string): WebhookInputErrors {
  return {
    ...(name.trim() ? {} : { name: 'Enter a name for the webhook.' }),
    ...(name.trim().length > 100 ? { name: 'The name must be at most 100 characters.' } : {}),
    ...(urlProblem(url.trim()) ? { url: urlProblem(url.trim())! } : {}),
  };
}
