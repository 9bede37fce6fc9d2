/**
 * Portal sessions from the environment (the dashboard embedded in another app's page):
 * `LATCHKEY_PORTAL_ORIGINS`, the origins that may frame it (`https://app.example.com`, or an
 * `http` origin on a loopback host), separated by commas; and `LATCHKEY_PUBLIC_URL`, this server's
 * public base URL, which each session's `url` starts with (without it, `url` is a path). Checked by
 * the core, which names the option in its error.
 */
import type { PortalOptions } from '@latchkey/core';

/** The core option `portal`, or undefined when neither variable is set. */
export function readPortalEnvironment(env: NodeJS.ProcessEnv = process.env): PortalOptions | undefined {
  const origins = (env['LATCHKEY_PORTAL_ORIGINS'] ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const publicUrl = env['LATCHKEY_PUBLIC_URL']?.trim();
  if (origins.length === 0 && !publicUrl) return undefined;
  return { allowedOrigins: origins, ...(publicUrl ? { publicUrl } : {}) };
}
