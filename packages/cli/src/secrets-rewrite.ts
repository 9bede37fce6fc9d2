/**
 * A secrets file brought to new values with its layout kept, for `pull` over a file that already
 * exists. In a `.env`: comments, blank lines, `export` and the order of the keys stay; a line whose
 * value is unchanged stays byte for byte; a changed value's line is rewritten as `KEY=value` (its
 * trailing comment dropped); a removed key's lines go; new keys are appended, sorted. In JSON: the
 * file's key order stays and new keys are appended, sorted. What is written always reads back as
 * exactly the new values; if the layout cannot give that, the file is written afresh.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  detectFormat,
  formatEnvValue,
  formatSecrets,
  parseSecrets,
  type SecretsFormat,
} from './secrets-file.js';

type Values = Record<string, string>;

const ASSIGNMENT = /^(\s*)(export\s+)?([^=\s]+)\s*=/;

/** `text` (a file of `format`, or of another format) rewritten to hold exactly `values`. */
export function rewriteSecrets(text: string, values: Values, format: SecretsFormat): string {
  try {
    if (detectFormat(text) !== format) return formatSecrets(values, format);
    const next = format === 'json' ? rewriteJson(text, values) : rewriteEnv(text, values);
    if (isDeepStrictEqual(parseSecrets(next, 'rewritten'), values)) return next;
  } catch {
    // A layout that cannot be kept (or read back) is written afresh, below.
  }
  return formatSecrets(values, format);
}

function rewriteJson(text: string, values: Values): string {
  const order = Object.keys(parseSecrets(text, 'file')).filter((key) => key in values);
  const added = Object.keys(values)
    .filter((key) => !order.includes(key))
    .sort();
  return `${JSON.stringify(Object.fromEntries([...order, ...added].map((k) => [k, values[k]])), null, 2)}\n`;
}

function rewriteEnv(text: string, values: Values): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const match = ASSIGNMENT.exec(line);
    const key = match?.[3];
    if (!match || key === undefined || line.trimStart().startsWith('#')) {
      lines.push(line);
      continue;
    }
    seen.add(key);
    if (!(key in values)) continue;
    if (parseSecrets(line, 'line')[key] === values[key]) lines.push(line);
    else {
      const end = line.endsWith('\r\n') ? '\r\n' : '\n';
      lines.push(`${match[1]}${match[2] ?? ''}${key}=${formatEnvValue(values[key]!)}${end}`);
    }
  }
  const added = Object.keys(values)
    .filter((key) => !seen.has(key))
    .sort();
  if (added.length > 0 && lines.length > 0 && !lines[lines.length - 1]!.endsWith('\n')) {
    lines[lines.length - 1] += '\n';
  }
  return lines.join('') + added.map((key) => `${key}=${formatEnvValue(values[key]!)}\n`).join('');
}
