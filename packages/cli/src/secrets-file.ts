/**
 * The files `pull` writes and `push` reads: `.env` (one `KEY=value` per line) or a JSON object of
 * strings. In `.env`, a value that is not plain is written in double quotes with JSON's escapes
 * (`\n`, `\"`, `\\`, `\uXXXX`), so every value, newlines and quotes included, reads back exactly.
 * Reading also takes `export KEY=…`, comments, blank lines and single-quoted values.
 */
import { CliError } from './exit-codes.js';

export type SecretsFormat = 'env' | 'json';

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const PLAIN = /^[A-Za-z0-9_./:@%+,=-]*$/;

/**
 * A value as a `.env` line holds it: plain, or double-quoted with JSON's escapes. U+2028 and U+2029,
 * which JSON leaves raw but editors and other tools take as line breaks, are escaped too.
 */
export const formatEnvValue = (value: string) =>
  PLAIN.test(value)
    ? value
    : JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** `values` as a new file, keys sorted. */
export function formatSecrets(values: Record<string, string>, format: SecretsFormat): string {
  const keys = Object.keys(values).sort();
  if (format === 'json')
    return `${JSON.stringify(Object.fromEntries(keys.map((k) => [k, values[k]])), null, 2)}\n`;
  return keys.map((key) => `${key}=${formatEnvValue(values[key]!)}\n`).join('');
}

/** The format of `text`: JSON when it is an object, else `.env`. */
export function detectFormat(text: string): SecretsFormat {
  return text.trimStart().startsWith('{') ? 'json' : 'env';
}

export function parseSecrets(text: string, source: string): Record<string, string> {
  if (detectFormat(text) === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${source}: not valid JSON: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CliError(`${source}: a JSON secrets file is one object of strings.`);
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') throw new CliError(`${source}: the value of ${key} is not a string.`);
    }
    return parsed as Record<string, string>;
  }
  const values: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    // `s`: a raw U+2028 or U+2029 in a value (a file written elsewhere) is part of it, as in JSON.
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/s.exec(line);
    if (!match || !KEY.test(match[1]!)) throw new CliError(`${source}:${index + 1}: expected KEY=value.`);
    values[match[1]!] = parseValue(match[2]!, `${source}:${index + 1}`);
  });
  return values;
}

function parseValue(raw: string, where: string): string {
  if (raw.startsWith('"')) {
    const end = closingQuote(raw);
    if (end < 0) throw new CliError(`${where}: unterminated double quote.`);
    try {
      return JSON.parse(raw.slice(0, end + 1)) as string;
    } catch {
      throw new CliError(`${where}: bad escape in a double-quoted value.`);
    }
  }
  if (raw.startsWith("'")) {
    const end = raw.indexOf("'", 1);
    if (end < 0) throw new CliError(`${where}: unterminated single quote.`);
    return raw.slice(1, end);
  }
  // An unquoted value ends at a comment.
  return raw.replace(/\s+#.*$/, '').trim();
}

function closingQuote(raw: string): number {
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] === '\\') i++;
    else if (raw[i] === '"') return i;
  }
  return -1;
}
