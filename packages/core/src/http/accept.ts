/** Content negotiation for the few routes with a second representation (RFC 9110 section 12.5.1). */
import { type CoreHeaders, headerValue } from '../model/core-request.js';

/** The weight `accept` gives `type/subtype` (its most specific matching range), 0 when none. */
function weightOf(accept: string, type: string, subtype: string): number {
  let best = { specificity: -1, q: 0 };
  for (const range of accept.split(',')) {
    const [name = '', ...parameters] = range.split(';').map((p) => p.trim().toLowerCase());
    const [t, s] = name.split('/');
    const specificity =
      t === type && s === subtype ? 2 : t === type && s === '*' ? 1 : name === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParameter = parameters.find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/**
 * Whether the request prefers `text/plain` to JSON: only when its Accept header weighs text/plain
 * above application/json. No Accept header, or a tie, keeps JSON, the API's default.
 */
export function prefersPlainText(headers: CoreHeaders): boolean {
  const accept = headerValue(headers, 'accept');
  if (accept === undefined) return false;
  return weightOf(accept, 'text', 'plain') > weightOf(accept, 'application', 'json');
}
