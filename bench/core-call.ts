/**
 * The benches' in-process caller: a request to `core.handle` as the bootstrap token, refusing
 * anything but a success so a bench never measures an error path by mistake.
 */
import type { CoreResponse } from '@latchkey/core';

/** What `core.handle` needs of a core. */
interface Handles {
  handle(request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
  }): Promise<CoreResponse>;
}

/** A `call(method, url, body?)` answering the response of a 2xx, and throwing on any other status. */
export function coreCaller(core: Handles, token: string) {
  return async (method: string, url: string, body?: unknown): Promise<CoreResponse> => {
    const response = await core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${url}: ${response.status} ${String(response.body)}`);
    return response;
  };
}
