import { describe, expect, it } from 'vitest';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { frameworkErrorResponse } from './framework-error.js';

const JSON_ERROR_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

describe('frameworkErrorResponse', () => {
  it('keeps a Latchkey error’s own body, with the JSON error headers', () => {
    const response = frameworkErrorResponse(new LatchkeyError('forbidden', 'No.'));
    expect(response).toEqual({
      status: 403,
      headers: JSON_ERROR_HEADERS,
      body: JSON.stringify({ error: { code: 'forbidden', message: 'No.', status: 403 } }),
    });
  });

  it('maps a framework’s 4xx to its Latchkey code without repeating the framework’s message', () => {
    const parser = Object.assign(new Error('Unexpected token } in JSON at position 7'), { statusCode: 400 });
    const response = frameworkErrorResponse(parser)!;
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body as string)).toEqual({
      error: { code: 'invalid_request', message: 'The request could not be read.', status: 400 },
    });
    const tooLarge = frameworkErrorResponse(Object.assign(new Error('big'), { statusCode: 413 }), {
      bodyLimit: 256,
    })!;
    expect(JSON.parse(tooLarge.body as string)).toEqual({
      error: { code: 'payload_too_large', message: 'The request body exceeds 256 bytes.', status: 413 },
    });
  });

  it('leaves a 4xx Latchkey has no code for to the host', () => {
    expect(
      frameworkErrorResponse(Object.assign(new Error('slow down'), { statusCode: 429 })),
    ).toBeUndefined();
  });

  it('answers anything else with a bare 500 and reports it as unexpected', () => {
    const seen: unknown[] = [];
    const crash = new Error('database password is hunter2');
    const response = frameworkErrorResponse(crash, { unexpected: (error) => seen.push(error) })!;
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(seen).toEqual([crash]);
    expect(frameworkErrorResponse(undefined)!.status).toBe(500);
  });
});
