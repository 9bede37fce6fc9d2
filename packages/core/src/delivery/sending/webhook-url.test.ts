import { describe, expect, it } from 'vitest';
import { isLatchkeyError } from '../../errors/latchkey-error.js';
import { vetWebhookUrl } from './webhook-url.js';

const settings = (resolve: (host: string) => Promise<{ address: string; family: number }[]>) => ({
  resolve,
  allowHosts: new Set<string>(),
});

describe('vetWebhookUrl', () => {
  it('answers the normalised URL of a public https host', async () => {
    const verdict = await vetWebhookUrl(
      'https://Hooks.Example.com/in',
      settings(async () => [{ address: '93.184.216.34', family: 4 }]),
    );
    expect(verdict).toEqual({ ok: true, url: new URL('https://hooks.example.com/in') });
  });

  it('answers why a URL is refused, for the caller to word', async () => {
    const verdict = await vetWebhookUrl(
      'https://internal.example/',
      settings(async () => [{ address: '10.0.0.1', family: 4 }]),
    );
    expect(verdict).toMatchObject({ ok: false, reason: 'blocked_address' });
  });

  it('turns a failing resolver into a 503 with Retry-After 5', async () => {
    const error = await vetWebhookUrl(
      'https://hooks.example.com/',
      settings(async () => {
        throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
      }),
    ).catch((e: unknown) => e);
    expect(isLatchkeyError(error) && error.code).toBe('service_unavailable');
    expect(isLatchkeyError(error) && error.retryAfterSeconds).toBe(5);
  });
});
