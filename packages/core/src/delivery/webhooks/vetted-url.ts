/** A webhook URL as given at create or PATCH: vetted against SSRF before it is stored, or a 400. */
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { WebhookSettings } from '../config.js';
import { vetWebhookUrl } from '../sending/webhook-url.js';

const REFUSALS = {
  invalid_url: 'url must be an absolute https:// URL.',
  not_https: 'url must use https.',
  credentials: 'url must not carry a user name or password.',
  blocked_address:
    'url must reach a public address: loopback, private, link-local and other internal addresses are refused.',
  unresolvable: 'url host does not resolve.',
} as const;

/** The URL `url` as vetted against SSRF and normalised, or the 400 saying why it is refused. */
export async function vettedUrl(
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>,
  url: string,
): Promise<string> {
  const verdict = await vetWebhookUrl(url, webhooks);
  if (!verdict.ok) {
    throw new LatchkeyError('invalid_request', REFUSALS[verdict.reason], {
      details: [{ path: 'body.url', message: verdict.message }],
    });
  }
  return verdict.url.href;
}
