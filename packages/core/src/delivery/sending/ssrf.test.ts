import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { BlockedTargetError, guardedLookup, isGlobalAddress, parseAllowHosts, vetTarget } from './ssrf.js';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

/** Every address form that must never be reached. */
const BLOCKED_ADDRESSES = [
  '127.0.0.1',
  '127.255.255.254',
  '0.0.0.0',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '100.100.100.200',
  '255.255.255.255',
  '224.0.0.1',
  '192.0.2.1',
  '198.18.0.1',
  '240.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fc00::1',
  'fd00:ec2::254',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a00:1',
  '2002:7f00:1::',
  '2002:c0a8:101::1',
  '2001::1',
  '::127.0.0.1',
  'ff02::1',
  '2001:db8::1',
  'fec0::1',
];

/** Spellings of blocked IPv4 addresses in URLs, which the URL parser reads as the addresses they are. */
const URL_SPELLINGS = [
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0177.0.0.1/',
  'https://0x7f.1/',
  'https://127.1/',
  'https://017700000001/',
  'https://0xA9.0xFE.0xA9.0xFE/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::1]:8443/x',
  'https://[fd00:ec2::254]/',
  'https://169.254.169.254/latest/meta-data/',
  'https://0/',
  'https://10.1/',
];

const resolver =
  (answers: Record<string, string[]>) =>
  async (host: string): Promise<LookupAddress[]> => {
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('isGlobalAddress', () => {
  it.each(BLOCKED_ADDRESSES)('refuses %s', (address) => {
    expect(isGlobalAddress(address)).toBe(false);
  });

  it.each([PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '2001:4860:4860::8888'])('accepts %s', (address) => {
    expect(isGlobalAddress(address)).toBe(true);
  });

  it.each(['', 'localhost', '1.2.3', '0x7f.1', '::ffff:zz', '1.2.3.4.5'])(
    'refuses the non-address %j',
    (text) => {
      expect(isGlobalAddress(text)).toBe(false);
    },
  );
});

describe('vetTarget', () => {
  const none = parseAllowHosts('');

  it.each(URL_SPELLINGS)('refuses %s', async (url) => {
    expect(await vetTarget(url, resolver({}), none)).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it.each(BLOCKED_ADDRESSES)(
    'refuses a host resolving to %s, even beside a public address',
    async (address) => {
      expect(
        await vetTarget('https://hooks.example.com/in', resolver({ 'hooks.example.com': [address] }), none),
      ).toMatchObject({
        ok: false,
        reason: 'blocked_address',
      });
      const mixed = resolver({ 'hooks.example.com': [PUBLIC_V4, address] });
      expect(await vetTarget('https://hooks.example.com/in', mixed, none)).toMatchObject({ ok: false });
    },
  );

  it('accepts an https URL whose host resolves only to public addresses', async () => {
    const result = await vetTarget(
      'https://Hooks.Example.com:8443/in?x=1',
      resolver({ 'hooks.example.com': [PUBLIC_V4, PUBLIC_V6] }),
      none,
    );
    expect(result).toMatchObject({ ok: true });
  });

  it.each([
    ['http://hooks.example.com/', 'not_https'],
    ['ftp://hooks.example.com/', 'not_https'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['not a url', 'invalid_url'],
    ['https://nowhere.example/', 'unresolvable'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await vetTarget(url, resolver({ 'hooks.example.com': [PUBLIC_V4] }), none)).toMatchObject({
      ok: false,
      reason,
    });
  });

  it('lets an allowlisted host reach a private address, and only that host', async () => {
    const allow = parseAllowHosts(' localhost , 127.0.0.1,[::1]');
    const answers = resolver({ localhost: ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
    expect(await vetTarget('https://localhost:9443/', answers, allow)).toMatchObject({ ok: true });
    expect(await vetTarget('https://127.0.0.1:9443/', answers, allow)).toMatchObject({ ok: true });
    expect(await vetTarget('https://[::1]:9443/', answers, allow)).toMatchObject({ ok: true });
    expect(await vetTarget('https://other.test/', answers, allow)).toMatchObject({
      ok: false,
      reason: 'blocked_address',
    });
  });

  it('passes on a DNS failure other than "no such host" (the caller answers 503)', async () => {
    const flaky = async () => {
      throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'EAI_AGAIN' });
    };
    await expect(vetTarget('https://hooks.example.com/', flaky, none)).rejects.toThrow('ETIMEOUT');
  });
});

describe('guardedLookup', () => {
  const lookupOnce = (
    lookup: ReturnType<typeof guardedLookup>,
    host: string,
    options: { all?: boolean; family?: number },
  ) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
      lookup(host, options, (error, address, family) => resolve({ error, address, family }));
    });

  it('hands the connection exactly the vetted addresses', async () => {
    const lookup = guardedLookup(
      resolver({ 'hooks.example.com': [PUBLIC_V4, PUBLIC_V6] }),
      parseAllowHosts(''),
    );
    expect(await lookupOnce(lookup, 'hooks.example.com', {})).toEqual({
      error: null,
      address: PUBLIC_V4,
      family: 4,
    });
    expect(await lookupOnce(lookup, 'hooks.example.com', { all: true })).toMatchObject({
      error: null,
      address: [
        { address: PUBLIC_V4, family: 4 },
        { address: PUBLIC_V6, family: 6 },
      ],
    });
    expect(await lookupOnce(lookup, 'hooks.example.com', { family: 6 })).toEqual({
      error: null,
      address: PUBLIC_V6,
      family: 6,
    });
  });

  it('refuses a host that answers a private address at connection time (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding = async (): Promise<LookupAddress[]> => [
      { address: calls++ === 0 ? PUBLIC_V4 : '10.0.0.7', family: 4 },
    ];
    const none = parseAllowHosts('');
    expect(await vetTarget('https://rebind.example/', rebinding, none)).toMatchObject({ ok: true });
    const { error } = await lookupOnce(guardedLookup(rebinding, none), 'rebind.example', { all: true });
    expect(error).toBeInstanceOf(BlockedTargetError);
    expect((error as BlockedTargetError).code).toBe('blocked_target');
  });

  it('passes resolution errors on', async () => {
    const { error } = await lookupOnce(guardedLookup(resolver({}), parseAllowHosts('')), 'gone.example', {});
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
