/**
 * Plain words for the small part of JSON Schema the event catalog's `data` schemas use (objects,
 * arrays, enums, nullable values, integers with bounds), so a generated page reads as a list of
 * fields rather than as the schema itself, which `GET /api/v2/event-types` serves in full.
 */

/** The subset of a JSON Schema (2020-12) node these pages read. */
export interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** One field of an object, with its nested fields when it is an object or a list of objects. */
export interface FieldLine {
  name: string;
  optional: boolean;
  type: string;
  description: string | undefined;
  fields: FieldLine[];
}

/** The object schema inside `node` (itself, a list's items, or the non-null branch), if any. */
function objectOf(node: SchemaNode): SchemaNode | undefined {
  if (node.properties) return node;
  if (node.items) return objectOf(node.items);
  const branch = node.anyOf?.find((option) => option.type !== 'null');
  return branch ? objectOf(branch) : undefined;
}

/** A short name for a schema's type: `string`, `integer`, `"a" \| "b"`, `list of object`, `… or null`. */
export function typeText(node: SchemaNode): string {
  if (node.anyOf) {
    const nullable = node.anyOf.some((option) => option.type === 'null');
    const rest = node.anyOf.filter((option) => option.type !== 'null').map(typeText);
    return `${rest.join(' or ')}${nullable ? ' or null' : ''}`;
  }
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.type === 'array') return `list of ${node.items ? typeText(node.items) : 'values'}`;
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if (node.type === 'integer' && node.minimum === 0) return 'integer ≥ 0';
  if (node.type === 'object' && !node.properties) return 'object';
  return node.format ? `${node.type ?? 'value'} (${node.format})` : (node.type ?? 'value');
}

/** The fields of an object schema, in the schema's order, nested objects as nested fields. */
export function fieldLines(node: SchemaNode): FieldLine[] {
  const required = new Set(node.properties ? (node.required ?? []) : []);
  return Object.entries(node.properties ?? {}).map(([name, child]) => {
    const inner = objectOf(child);
    return {
      name,
      optional: !required.has(name),
      type: typeText(child),
      description: child.description,
      fields: inner && inner !== node ? fieldLines(inner) : [],
    };
  });
}

/** The fields as a Markdown list, nested fields indented beneath their parent. */
export function fieldList(fields: FieldLine[], depth = 0): string[] {
  const indent = '  '.repeat(depth);
  return fields.flatMap((field) => [
    `${indent}- \`${field.name}\`${field.optional ? ' (optional)' : ''}: ${field.type}${
      field.description ? `, ${field.description}` : ''
    }`,
    ...fieldList(field.fields, depth + 1),
  ]);
}
