/**
 * What the embedded page tells the page that frames it: its height (`latchkey:resize`) as it
 * changes, and that its session has ended (`latchkey:expired`). Messages go to the session's own
 * origin only, the one the server allowed to frame the page; before the session is known (a token
 * refused at once) that is the origin the server wrote into the page, or else the one the browser
 * reports for the parent, which the page's `frame-ancestors` already held to the session's.
 */
import type { PortalMessage } from '../../src/embed/portal-url.js';

let target: string | null = null;

/** Sends the following messages to `origin` (the session's). */
export function setParentOrigin(origin: string): void {
  target = origin;
}

/**
 * The origin the server allowed to frame this page, where it wrote it into the page; else the
 * parent's origin as the browser reports it, when the page is framed and it does.
 */
function reportedParentOrigin(): string | null {
  const written = document.querySelector<HTMLMetaElement>('meta[name="latchkey-portal-origin"]')?.content;
  if (written && /^https?:\/\//.test(written)) return written;
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0]!;
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** Posts `message` to the parent, if the page is framed and the parent's origin is known. */
export function tellParent(message: PortalMessage): void {
  if (window.parent === window) return;
  const origin = target ?? reportedParentOrigin();
  if (origin && origin !== 'null') window.parent.postMessage(message, origin);
}

/** Reports the height of `element` now and at every change; returns the function that stops it. */
export function reportHeight(element: HTMLElement): () => void {
  let last = -1;
  const report = () => {
    const height = Math.ceil(element.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    tellParent({ type: 'latchkey:resize', height });
  };
  const observer = new ResizeObserver(report);
  observer.observe(element);
  report();
  return () => observer.disconnect();
}
