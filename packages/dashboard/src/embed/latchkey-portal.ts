/**
 * `<latchkey-portal url="…">`: the element a host page puts where the portal goes. It makes the
 * iframe, follows the height the portal reports (`latchkey:resize`) and raises `expired` when the
 * portal says its session ended (`latchkey:expired`), so the host can mint a fresh URL and set it.
 * A message counts only when it comes from this element's own frame and from the origin of `url`.
 * Framework-neutral and dependency-free; importing this module defines the element (once).
 *
 * ```html
 * <latchkey-portal url="https://latchkey.example/dashboard/embed#lkp_…" theme="dark"></latchkey-portal>
 * <script type="module">
 *   const portal = document.querySelector('latchkey-portal');
 *   portal.addEventListener('expired', async () => (portal.url = await mintPortalUrl()));
 * </script>
 * ```
 */
import { portalFrameUrl, portalMessage } from './portal-url.js';

/** The element's tag. */
export const LATCHKEY_PORTAL_TAG = 'latchkey-portal';

/** The height before the portal reports its own, in CSS pixels. */
const INITIAL_HEIGHT = 480;
/** No portal grows its frame past this (a runaway page cannot make the host page endless). */
const MAX_HEIGHT = 20_000;

// Node (server-side rendering, the tests' imports) has no HTMLElement: the class is then a stub
// that is never defined as an element.
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

/**
 * The element's own style, as a constructed sheet: a `<style>` element would be refused by a host
 * page whose policy allows no inline style, which a page framing a portal is likely to have.
 */
function frameStyle(): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(':host{display:block}iframe{display:block;width:100%;border:0}');
  return sheet;
}

/** The `<latchkey-portal>` element. Attributes: `url` (required), `theme` (`light`/`dark`), `label`. */
export class LatchkeyPortalElement extends Base {
  static get observedAttributes(): string[] {
    return ['url', 'theme', 'label'];
  }

  #frame: HTMLIFrameElement | null = null;
  #origin: string | null = null;
  #listening = false;
  readonly #onMessage = (event: MessageEvent) => this.#receive(event);

  /** The portal URL (`…/dashboard/embed#<token>`); setting it loads a fresh frame. */
  get url(): string {
    return this.getAttribute('url') ?? '';
  }
  set url(value: string) {
    this.setAttribute('url', value);
  }

  connectedCallback(): void {
    if (!this.#listening) {
      window.addEventListener('message', this.#onMessage);
      this.#listening = true;
    }
    if (!this.shadowRoot) this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [frameStyle()];
    this.#load();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
    this.#listening = false;
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous === next || !this.isConnected) return;
    if (name === 'label' && this.#frame) this.#frame.title = this.#label();
    else if (name !== 'label') this.#load();
  }

  #label(): string {
    return this.getAttribute('label') || 'Latchkey: audit webhooks';
  }

  /** A new frame for the current URL: a fresh document, so a new token never meets the old state. */
  #load(): void {
    const root = this.shadowRoot!;
    this.#frame?.remove();
    this.#frame = null;
    this.#origin = null;
    const target = portalFrameUrl(this.url, this.getAttribute('theme'), getComputedStyle(this));
    if (!target) return;
    const frame = document.createElement('iframe');
    frame.title = this.#label();
    frame.style.height = `${INITIAL_HEIGHT}px`;
    frame.referrerPolicy = 'no-referrer';
    // The portal's copy button writes a signing secret to the clipboard; nothing else is granted.
    frame.allow = 'clipboard-write';
    frame.src = target.href;
    this.#origin = target.origin;
    this.#frame = frame;
    root.append(frame);
  }

  #receive(event: MessageEvent): void {
    if (!this.#frame || event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    const message = portalMessage(event.data);
    if (message?.type === 'latchkey:resize') {
      this.#frame.style.height = `${Math.min(Math.max(message.height, 0), MAX_HEIGHT)}px`;
    } else if (message?.type === 'latchkey:expired') {
      this.dispatchEvent(new CustomEvent('expired', { bubbles: true, composed: true }));
    }
  }
}

/** Defines `<latchkey-portal>` in this window's registry, unless it is defined already (or not a browser). */
export function defineLatchkeyPortal(): void {
  if (typeof customElements === 'undefined' || customElements.get(LATCHKEY_PORTAL_TAG)) return;
  customElements.define(LATCHKEY_PORTAL_TAG, LatchkeyPortalElement);
}

defineLatchkeyPortal();
