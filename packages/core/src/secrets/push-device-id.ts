/** The signing device a push body names, read before the body is validated (for `prefetch`). */

const decoder = new TextDecoder();

/**
 * The `device_id` of a raw push body, or undefined when the body is not a JSON object with a string
 * there. Never throws: the body is validated later, and a wrong guess only costs a lookup.
 */
export function pushDeviceId(body: string | Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
    const id = (value as { device_id?: unknown } | null)?.device_id;
    return typeof id === 'string' && id.length <= 200 ? id : undefined;
  } catch {
    return undefined;
  }
}
