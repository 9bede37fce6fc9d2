/** The command line a bench takes: its numeric options, each with a default, and `--write`. */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * Reads `--name N` for each option of `defaults` (a number, its default when absent) and `--write`
 * (publish the results in bench/RESULTS.md).
 */
export function benchArgs<const K extends string>(
  defaults: Record<K, number>,
): Record<K, number> & { write: boolean } {
  const names = Object.keys(defaults) as K[];
  const options: ParseArgsConfig['options'] = { write: { type: 'boolean', default: false } };
  for (const name of names) options[name] = { type: 'string', default: String(defaults[name]) };
  const { values } = parseArgs({ options });
  const numbers = Object.fromEntries(names.map((name) => [name, Number(values[name])])) as Record<K, number>;
  return { ...numbers, write: values.write === true };
}
