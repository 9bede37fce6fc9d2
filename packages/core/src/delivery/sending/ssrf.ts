/**
 * The SSRF guard of audit webhook deliveries: a delivery may only reach a globally routable
 * address. Checked when a webhook is created and again at every attempt, where the address checked
 * is the address connected to (the check runs inside the connection's DNS lookup), so a host that
 * answers a public address to the check and a private one to the connection (DNS rebinding) gets
 * nowhere. Address ranges come from `ipaddr.js`, not from hand-written lists.
 *
 * Refused: loopback, RFC 1918 private, link-local (cloud metadata at 169.254.169.254 included),
 * CGNAT, unspecified, broadcast, multicast, documentation and other reserved ranges; for IPv6 also
 * unique-local, link-local, IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo forms, and anything
 * outside 2000::/3. Decimal, octal and hex IPv4 spellings (`2130706433`, `0177.0.0.1`, `0x7f.1`)
 * are read as the addresses they are, by the WHATWG URL parser, before the check.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to its addresses (`dns.promises.lookup(host, { all: true })` in production). */
export type ResolveHost = (host: string) => Promise<readonly LookupAddress[]>;

/** Hosts (names or address literals, lower case) deliveries may reach whatever they resolve to. */
export type AllowHosts = ReadonlySet<string>;

/** Reads an allowlist such as `LATCHKEY_WEBHOOK_ALLOW_HOSTS`: comma-separated host names or addresses. */
export function parseAllowHosts(text: string | undefined): AllowHosts {
  return new Set(
    (text ?? '')
      .split(',')
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter(Boolean),
  );
}

const GLOBAL_IPV6 = ipaddr.parseCIDR('2000::/3');

/** Whether `address` (an IP literal) is a globally routable unicast address. */
export function isGlobalAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && (parsed as ipaddr.IPv6).match(GLOBAL_IPV6 as [ipaddr.IPv6, number]);
}

/** Why a target was refused. */
export interface TargetRefusal {
  ok: false;
  /** `invalid_url`, `not_https`, `credentials`, `blocked_address` or `unresolvable`. */
  reason: 'invalid_url' | 'not_https' | 'credentials' | 'blocked_address' | 'unresolvable';
  message: string;
}

/** The host of a webhook URL, lower case, without IPv6 brackets. */
export function targetHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a URL as a delivery target without connecting: https, no credentials in it, and, unless its
 * host is allowlisted, an address literal that is global or a host whose every address is. DNS
 * failures other than "no such host" are thrown (the caller answers 503: try again).
 */
export async function vetTarget(
  text: string,
  resolve: ResolveHost,
  allow: AllowHosts,
): Promise<{ ok: true; url: URL } | TargetRefusal> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'invalid_url', message: 'the url is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'not_https', message: 'the url must use https' };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'credentials', message: 'the url must not carry a user name or password' };
  }
  const host = targetHost(url);
  if (allow.has(host)) return { ok: true, url };
  if (isIP(host) !== 0) {
    return isGlobalAddress(host)
      ? { ok: true, url }
      : { ok: false, reason: 'blocked_address', message: 'the url points at a non-public address' };
  }
  const addresses = await resolveOrNone(resolve, host);
  if (addresses.length === 0)
    return { ok: false, reason: 'unresolvable', message: 'the url host does not resolve' };
  if (addresses.some((a) => !isGlobalAddress(a.address))) {
    return { ok: false, reason: 'blocked_address', message: 'the url host resolves to a non-public address' };
  }
  return { ok: true, url };
}

async function resolveOrNone(resolve: ResolveHost, host: string): Promise<readonly LookupAddress[]> {
  try {
    return await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw error;
  }
}

/** A connection refused by the guard: the attempt fails with `last_error.code` `blocked_target`. */
export class BlockedTargetError extends Error {
  override name = 'BlockedTargetError';
  readonly code = 'blocked_target';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect` (undici's `connect.lookup`) that resolves with
 * `resolve`, refuses the host unless every address is global (or the host is allowlisted) and hands
 * the connection exactly the addresses it vetted. Address literals never reach a lookup: check them
 * with {@link vetTarget} before connecting.
 */
export function guardedLookup(resolve: ResolveHost, allow: AllowHosts) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ) => {
    const host = hostname.toLowerCase();
    resolve(host).then(
      (addresses) => {
        const wanted = addresses.filter(
          (a) =>
            options.family === undefined ||
            options.family === 0 ||
            Number(options.family) === a.family ||
            `IPv${a.family}` === options.family,
        );
        if (wanted.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          callback(error, []);
          return;
        }
        if (!allow.has(host) && addresses.some((a) => !isGlobalAddress(a.address))) {
          callback(new BlockedTargetError(`${hostname} resolves to a non-public address`), []);
          return;
        }
        if (options.all)
          callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
