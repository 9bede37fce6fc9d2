/** `Content-Type` parsing (RFC 9110 section 8.3.1): a type, a subtype and parameters. */

/** A parsed media type: type and subtype in lower case, parameter names in lower case. */
export interface MediaType {
  type: string;
  subtype: string;
  /** Parameter values as sent (quoted strings unquoted); a name given twice makes the whole type invalid. */
  parameters: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses a `Content-Type` value, or returns null when it is malformed. */
export function parseMediaType(value: string): MediaType | null {
  let rest = value.trim();
  const head = /^([^/;\s]+)\/([^;\s]+)\s*/.exec(rest);
  if (!head || !TOKEN.test(head[1]!) || !TOKEN.test(head[2]!)) return null;
  rest = rest.slice(head[0].length);
  const parameters = new Map<string, string>();
  while (rest.length > 0) {
    const separator = /^;\s*/.exec(rest);
    if (!separator) return null;
    rest = rest.slice(separator[0].length);
    if (rest.length === 0) break;
    if (rest.startsWith(';')) continue;
    const name = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)=/.exec(rest);
    if (!name) return null;
    rest = rest.slice(name[0].length);
    let parameter: string;
    if (rest.startsWith('"')) {
      const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
      if (!quoted) return null;
      parameter = quoted[1]!.replace(/\\(.)/g, '$1');
      rest = rest.slice(quoted[0].length);
    } else {
      const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(rest);
      if (!token) return null;
      parameter = token[0];
      rest = rest.slice(token[0].length);
    }
    const key = name[1]!.toLowerCase();
    // A repeated parameter is ambiguous (two charsets, say): refuse rather than pick one.
    if (parameters.has(key)) return null;
    parameters.set(key, parameter);
    rest = rest.replace(/^\s+/, '');
  }
  return { type: head[1]!.toLowerCase(), subtype: head[2]!.toLowerCase(), parameters };
}

/**
 * Whether a request body with this `Content-Type` is JSON the core can read: `application/json` or
 * `application/*+json`, with no charset or `utf-8` (any case, quoted or not). Bodies are always
 * decoded as UTF-8 (RFC 8259), so any other charset would be misread.
 */
export function isReadableJson(contentType: string): boolean {
  const media = parseMediaType(contentType);
  if (media?.type !== 'application') return false;
  if (media.subtype !== 'json' && !media.subtype.endsWith('+json')) return false;
  const charset = media.parameters.get('charset');
  return charset === undefined || charset.toLowerCase() === 'utf-8';
}
