/** The check a webhook URL passes before it is stored, by create and by restore alike. */
import { serviceUnavailable } from '../../errors/latchkey-error.js';
import { type AllowHosts, type ResolveHost, type TargetRefusal, vetTarget } from './ssrf.js';

/**
 * The SSRF check of a URL about to be stored as a webhook's, with this server's resolver and
 * allowlist: the URL as normalised, or why it is refused (the caller words the refusal). A resolver
 * that fails for another reason than "no such host" is a 503, try again in 5 seconds: the URL may
 * well be good.
 */
export async function vetWebhookUrl(
  url: string,
  webhooks: { resolve: ResolveHost; allowHosts: AllowHosts },
): Promise<{ ok: true; url: URL } | TargetRefusal> {
  try {
    return await vetTarget(url, webhooks.resolve, webhooks.allowHosts);
  } catch (error) {
    throw serviceUnavailable(error, 5);
  }
}
