import { describe, expect, it } from 'vitest';
import {
  duplicateNames,
  headerListFault,
  headerNameFault,
  headerValueFault,
  MAX_HEADERS_CHARACTERS,
  mergeHeaderNames,
} from './custom-headers.js';

describe('custom header names', () => {
  it('takes HTTP tokens that the sender does not own', () => {
    for (const name of ['X-Api-Key', 'Authorization', 'x_tenant', "X-Odd!#$%&'*+.^_`|~1"]) {
      expect(headerNameFault(name), name).toBeNull();
    }
  });

  it('refuses framing, hop-by-hop, signature and trace headers, in any case', () => {
    for (const name of [
      'Connection',
      'KEEP-ALIVE',
      'Proxy-Authorization',
      'proxy-anything',
      'TE',
      'Trailer',
      'Transfer-Encoding',
      'Upgrade',
      'Host',
      'Content-Length',
      'content-type',
      'Expect',
      'X-Service-Timestamp',
      'x-service-signature',
      'X-Service-Event-Id',
      'Webhook-Id',
      'webhook-timestamp',
      'webhook-signature',
      'Traceparent',
      'tracestate',
      'Content-Encoding',
      'X-Service-Anything',
      'x-service-',
      'Webhook-Key-Id',
      'webhook-',
    ]) {
      expect(headerNameFault(name), name).toMatch(/set by the sender/);
    }
  });

  it('refuses what is not a token, empty or too long', () => {
    for (const name of ['', 'X Api', 'X-Api:Key', 'X-Ünicode', 'X\r\nY', 'a'.repeat(101)]) {
      expect(headerNameFault(name), name).not.toBeNull();
    }
  });

  it('finds names that repeat ignoring case', () => {
    expect(duplicateNames(['X-Api-Key', 'X-Tenant', 'x-api-key', 'X-API-KEY'])).toEqual([
      'x-api-key',
      'X-API-KEY',
    ]);
    expect(duplicateNames(['A', 'B'])).toEqual([]);
  });
});

describe('a custom header list as a whole', () => {
  it('is refused past ten entries or its characters, without looking at the entries', () => {
    const many = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`bad name ${i}`, '\n']));
    expect(headerListFault(many)).toEqual({ path: [], message: 'at most 10 custom headers' });
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, 'v']));
    expect(headerListFault(ten)).toBeNull();
    const long = { 'X-Api-Key': 'k'.repeat(MAX_HEADERS_CHARACTERS) };
    expect(headerListFault(long)?.message).toMatch(/at most 41960 characters/);
    expect(headerListFault({ 'X-Api-Key': 'k'.repeat(4_096) })).toBeNull();
  });

  it('refuses __proto__, which JSON gives as a member and a record would drop', () => {
    expect(headerListFault(JSON.parse('{"__proto__":"v"}') as object)).toEqual({
      path: ['__proto__'],
      message: '__proto__ cannot be a header name',
    });
    expect(headerListFault({ constructor: 'v' })).toBeNull();
  });
});

describe('custom header values', () => {
  it('takes visible ASCII and inner spaces up to 4 KiB', () => {
    expect(headerValueFault('Splunk 0f9e-11aa')).toBeNull();
    expect(headerValueFault('~'.repeat(4_096))).toBeNull();
  });

  it('refuses CR, LF, control and non-ASCII characters, edge spaces, empty and oversized values', () => {
    for (const value of [
      'a\r\nX-Evil: 1',
      'a\nb',
      'a\tb',
      'a\u0000b',
      'café',
      ' lead',
      'trail ',
      '',
      'x'.repeat(4_097),
    ]) {
      expect(headerValueFault(value), JSON.stringify(value)).not.toBeNull();
    }
  });
});

describe('a PATCH of headers', () => {
  it('keeps names not given, replaces ignoring case, removes nulls and adds new ones', () => {
    expect(
      mergeHeaderNames(['X-Api-Key', 'X-Tenant', 'X-Region'], {
        'x-api-key': 'new',
        'X-Tenant': null,
        'X-Added': 'v',
      }),
    ).toEqual({ kept: ['X-Region'], set: ['x-api-key', 'X-Added'] });
    expect(mergeHeaderNames(['A'], {})).toEqual({ kept: ['A'], set: [] });
  });
});
