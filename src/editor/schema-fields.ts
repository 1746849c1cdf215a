// A data file's schema as the editor's form: JSON Schema, as any schema library that implements
// Standard JSON Schema gives it, mapped to the editor's widgets. What a widget cannot express is
// left out of the form (its value kept as the file has it) and named in a warning.

/** A widget and its options (Decap CMS's field shape, without name and label). */
export interface Widget {
  widget: string;
  required?: boolean;
  [option: string]: unknown;
}

/** One field of the editor's form. */
export type EditorField = Widget & { name: string; label: string; hint?: string };

/** The part of JSON Schema the mapping reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  title?: string;
  description?: string;
  default?: unknown;
}

/** What a schema offers for the mapping: Standard JSON Schema (zod 4, Valibot, ArkType). */
interface StandardJsonSchema {
  '~standard'?: {
    jsonSchema?: { input(options: { target: string; libraryOptions?: Record<string, unknown> }): unknown };
  };
}

/**
 * The JSON Schema of what a data file may hold, or undefined when the schema offers none. A type
 * JSON Schema cannot hold (a date object, a transform's output) comes back as `{}`, for the
 * mapping to name.
 */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  const standard = (schema as StandardJsonSchema | undefined)?.['~standard']?.jsonSchema;
  if (!standard) return undefined;
  return standard.input({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } }) as JsonSchema;
}

/** `copyItems` → "Copy items", `managingDirectors` → "Managing directors", `noteTitle` → "Note title". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  // A name of only separators (`_`) is its own label.
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** The schema without a `null` alternative (an optional written as nullable). */
function withoutNull(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return schema;
  const rest = options.filter((option) => option.type !== 'null');
  return rest.length === 1 ? { ...rest[0], title: schema.title ?? rest[0]!.title } : schema;
}

type Warn = (path: string, why: string) => void;

/** The widget and its options for a string schema. */
function stringWidget(schema: JsonSchema): Widget {
  const choices = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (choices) return { widget: 'select', options: choices.map(String) };
  if (schema.format === 'date')
    return { widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false };
  if (schema.format === 'date-time') return { widget: 'datetime' };
  const pattern =
    schema.pattern !== undefined
      ? { pattern: [schema.pattern, `Not in the form this field takes (${schema.pattern})`] }
      : {};
  return { widget: 'string', ...pattern };
}

/** The widget for one schema, or undefined (with a warning naming `path`) when none expresses it. */
export function widgetFor(schema: JsonSchema, path: string, warn: Warn): Widget | undefined {
  const plain = withoutNull(schema);
  const type = Array.isArray(plain.type) ? undefined : plain.type;
  if (type === 'string' || (type === undefined && plain.enum?.every((value) => typeof value === 'string')))
    return stringWidget(plain);
  if (type === 'number' || type === 'integer')
    return {
      widget: 'number',
      value_type: type === 'integer' ? 'int' : 'float',
      ...(plain.minimum !== undefined ? { min: plain.minimum } : {}),
      ...(plain.maximum !== undefined ? { max: plain.maximum } : {}),
    };
  if (type === 'boolean') return { widget: 'boolean', default: false };
  if (type === 'object' && plain.properties) return { widget: 'object', fields: fieldsOf(plain, path, warn) };
  if (type === 'array' && plain.items) return listWidget(plain, path, warn);
  warn(path, whyNot(plain));
  return undefined;
}

/** What the editor cannot show of a schema, in words. */
function whyNot(schema: JsonSchema): string {
  if (schema.anyOf || schema.oneOf || Array.isArray(schema.type))
    return `it may hold one of several types${Array.isArray(schema.type) ? ` (${schema.type.join(', ')})` : ''}, which no widget of the editor takes`;
  if (schema.type === 'object') return 'it is a map of any keys, which no widget of the editor takes';
  if (Object.keys(schema).length === 0) return 'its type has no JSON Schema (a date object or a transform?)';
  return `its type (${JSON.stringify(schema.type ?? schema)}) has no widget in the editor`;
}

function listWidget(schema: JsonSchema, path: string, warn: Warn): Widget | undefined {
  const items = withoutNull(schema.items!);
  const limits = {
    ...(schema.minItems ? { min: schema.minItems } : {}),
    ...(schema.maxItems !== undefined ? { max: schema.maxItems } : {}),
  };
  if (items.type === 'object' && items.properties) {
    const fields = fieldsOf(items, `${path}[]`, warn);
    // The first text field names each item in the collapsed list ("Alice", "Bob").
    const summary = fields.find((field) => field.widget === 'string');
    return { widget: 'list', fields, ...(summary ? { summary: `{{fields.${summary.name}}}` } : {}), ...limits };
  }
  const item = widgetFor(items, `${path}[]`, warn);
  if (!item) return undefined;
  return { widget: 'list', field: { name: 'item', label: 'Item', ...item }, ...limits };
}

/**
 * Fields inside an optional object, none required: Decap asks for an absent optional object's
 * required fields too, and would refuse to save. The build's check still refuses a half-filled one.
 */
function noneRequired(fields: readonly EditorField[]): EditorField[] {
  return fields.map((field) => ({
    ...field,
    required: false,
    ...(Array.isArray(field.fields) ? { fields: noneRequired(field.fields as EditorField[]) } : {}),
  }));
}

/** The fields of an object schema, each with its label, hint and whether it must be given. */
export function fieldsOf(schema: JsonSchema, path: string, warn: Warn): EditorField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const widget = widgetFor(property, path ? `${path}.${name}` : name, warn);
    if (!widget) return [];
    const hint = property.description;
    const optionalObject = !required.has(name) && widget.widget === 'object';
    return [
      {
        name,
        label: property.title ?? labelOf(name),
        ...widget,
        ...(optionalObject ? { fields: noneRequired(widget.fields as EditorField[]) } : {}),
        required: required.has(name),
        ...(hint ? { hint } : {}),
      },
    ];
  });
}
