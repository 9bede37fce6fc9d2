/**
 * Reading an issuer's discovery document and key set over HTTPS, under the webhook SSRF rules: the
 * URL is vetted before connecting and the address connected to is vetted inside the connection's
 * DNS lookup (so DNS rebinding gets nowhere), redirects are never followed, and every answer is
 * held to a size and a time. undici is loaded on first use, as for deliveries.
 */
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import { type AllowHosts, guardedLookup, type ResolveHost, vetTarget } from '../delivery/sending/ssrf.js';
import type { TrustedIssuers } from './trusted-issuers.js';

/** The largest discovery document or key set read, in bytes. */
const MAX_BYTES = 65_536;

/** Why an issuer's keys could not be read: the message names the step, never a token. */
export class IssuerFetchError extends Error {
  override name = 'IssuerFetchError';
}

/** What {@link createIssuerFetch} needs: the SSRF guard's resolver and allowlist, and the trusted issuers. */
export interface IssuerFetchOptions {
  resolve: ResolveHost;
  allowHosts: AllowHosts;
  trusted: TrustedIssuers;
  timeoutMs: number;
}

/** A JSON GET of `url` for `issuer`, with the cache lifetime its `Cache-Control` asks for. */
export type IssuerFetch = (issuer: string, url: string) => Promise<{ json: unknown; maxAgeSeconds: number }>;

/** Makes the fetch, one undici agent per set of CAs (the system's, or a trusted issuer's added). */
export function createIssuerFetch(options: IssuerFetchOptions): IssuerFetch {
  const allow = new Set([...options.allowHosts, ...options.trusted.hosts]);
  const agents = new Map<string, Promise<Agent>>();
  const agentFor = (issuer: string): Promise<Agent> => {
    const ca = options.trusted.get(issuer)?.ca ?? [];
    const key = ca.join('\n');
    let agent = agents.get(key);
    if (!agent) {
      agent = import('undici').then(
        ({ Agent }) =>
          new Agent({
            connect: {
              lookup: guardedLookup(options.resolve, allow),
              ...(ca.length > 0 ? { ca: [...rootCertificates, ...ca] } : {}),
            },
            connections: 4,
          }),
      );
      agents.set(key, agent);
    }
    return agent;
  };
  return async (issuer, url) => {
    const vetted = await vetTarget(url, options.resolve, allow);
    if (!vetted.ok) throw new IssuerFetchError(`${url}: ${vetted.message}`);
    const { request } = await import('undici');
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(vetted.url, {
        dispatcher: await agentFor(issuer),
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new IssuerFetchError(
        `${url}: ${code === 'blocked_target' ? 'a non-public address' : 'unreachable'}`,
      );
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new IssuerFetchError(`${url}: answered ${response.statusCode}`);
    }
    const json = await readJson(response.body, url);
    return { json, maxAgeSeconds: maxAge(response.headers['cache-control']) };
  };
}

async function readJson(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  url: string,
): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) {
      body.destroy();
      throw new IssuerFetchError(`${url}: more than ${MAX_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new IssuerFetchError(`${url}: not JSON`);
  }
}

/** The lifetime `Cache-Control` grants, in seconds: `max-age` up to one hour; 0 for no-store/no-cache; else 5 minutes. */
function maxAge(header: string | string[] | undefined): number {
  const text = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase();
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/.test(text)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,10})"?/.exec(text);
  return match ? Math.min(Number(match[1]), 3600) : 300;
}
