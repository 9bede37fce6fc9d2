/**
 * Well-formed text: the one rule every string the API takes goes through. A lone UTF-16 surrogate
 * (`"\ud800"` in JSON) has no UTF-8 form, so anything that encodes it (sealing, PostgreSQL, a
 * signature over bytes) silently turns it into U+FFFD, and what is stored is not what was sent or
 * signed. NUL is refused too: PostgreSQL `text` cannot hold it and an environment variable cannot
 * carry it, so it would be a 500 on one store and a value no process can use on the others.
 */
import { z } from 'zod';

// Without the `u` flag a regex sees UTF-16 code units, so a surrogate that is not half of a pair
// can be matched on its own.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` is not well-formed text (a lone surrogate or NUL, and where), or null when it is. */
export function textFault(value: string): string | null {
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    const unit = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `must be well-formed Unicode: a lone surrogate U+${unit} is at index ${lone.index}`;
  }
  const nul = value.indexOf('\u0000');
  if (nul !== -1) return `must not contain NUL (U+0000): one is at index ${nul}`;
  return null;
}

/**
 * The zod check behind {@link text}, for string schemas that do not start from `z.string()` (an
 * ISO date-time, a URL). It stops the schema's later checks, so `details` names the real fault.
 */
export const wellFormed = z.superRefine<string>((value, ctx) => {
  const fault = textFault(value);
  if (fault !== null) ctx.addIssue({ code: 'custom', message: fault, input: value, continue: false });
});

/**
 * A string the API takes: well-formed Unicode without NUL. Every request schema builds its strings
 * from this (`text().max(200)`, `text().regex(…)`), so a lone surrogate anywhere in a body, a query
 * or a path is a 400 `invalid_request` whose `details` name where it is.
 */
export const text = (): z.ZodString => z.string().check(wellFormed);

/** An RFC 3339 time with an offset (`Z` or `±hh:mm`), as the history filters and `recover` take it. */
export const Rfc3339 = z.iso.datetime({ offset: true }).check(wellFormed);
