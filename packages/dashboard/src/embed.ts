/**
 * `@latchkey/dashboard/embed`: the `<latchkey-portal url="…">` element for host pages (importing
 * this entry defines it) and the look a host may give the portal. Browser code, no dependency.
 *
 * ```ts
 * import '@latchkey/dashboard/embed';
 * const portal = document.createElement('latchkey-portal');
 * portal.url = urlMintedByTheServer; // `…/dashboard/embed#<token>`
 * portal.addEventListener('expired', async () => (portal.url = await mintAgain()));
 * document.querySelector('#audit-webhooks')!.append(portal);
 * ```
 */
import type { LatchkeyPortalElement } from './embed/latchkey-portal.js';

export { defineLatchkeyPortal, LATCHKEY_PORTAL_TAG, LatchkeyPortalElement } from './embed/latchkey-portal.js';
export { PORTAL_PROPERTIES, type PortalProperty } from './embed/portal-theme.js';
export type { PortalMessage } from './embed/portal-url.js';

declare global {
  interface HTMLElementTagNameMap {
    'latchkey-portal': LatchkeyPortalElement;
  }
}
