// The spec types (src/core/specs/specTypes.generated.ts) are generated from the one JSON Schema
// (schemas/compute-spec.schema.json, docs/shapes.md); specTypes.test.ts checks the file matches. After
// changing the schema run `npm run compile-tests && node out/test/unit/specs/specTypesFile.js --write`.
// The generator covers the keywords the schema uses for shape (type, properties, required,
// additionalProperties, items, enum, const, anyOf, $ref, one-of-two-keys objects); the value rules
// (pattern, minimum, …) are the validator's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const SPEC_TYPES_FILE = path.join(ROOT, 'src', 'core', 'specs', 'specTypes.generated.ts');

export interface Schema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  $ref?: string;
  maxProperties?: number;
  definitions?: Record<string, Schema>;
}

/** Definitions that become named types (the names the code has always used); the others are inlined. */
const NAMES: Record<string, string> = {
  secretRef: 'SecretRef',
  envMap: 'EnvMap',
  resource: 'ResourceSelector',
  mount: 'Mount',
  nasMount: 'NasMount',
  mountByName: 'MountByName',
  probe: 'Probe',
  healthChecks: 'HealthChecks',
  taskService: 'TaskServiceSpec',
  task: 'TaskSpec',
  jobService: 'JobServiceSpec',
  job: 'JobSpec',
};

const PRIMITIVES: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null', array: 'unknown[]', object: 'Record<string, unknown>' };

/** A TypeScript literal in the repository's quotes. */
function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

function key(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : literal(name);
}

function comment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const line = text.replace(/\s+/g, ' ').replace(/\*\//g, '*\\/').trim();
  return `${indent}/** ${line} */\n`;
}

class Generator {
  constructor(private readonly definitions: Record<string, Schema>) {}

  type(schema: Schema, indent: string): string {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/definitions/', '');
      const target = this.definitions[name];
      if (!target) throw new Error(`unknown $ref ${schema.$ref}`);
      return NAMES[name] ?? this.type(target, indent);
    }
    if (schema.const !== undefined) return literal(schema.const);
    if (schema.enum) return schema.enum.map(literal).join(' | ');
    if (schema.anyOf) return schema.anyOf.map((item) => this.type(item, indent)).join(' | ');
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length > 1) return types.map((type) => this.type({ ...schema, type }, indent)).join(' | ');
    if (types[0] === 'array') return schema.items ? `${this.wrap(this.type(schema.items, indent))}[]` : 'unknown[]';
    if (types[0] === 'object') return this.object(schema, indent);
    return PRIMITIVES[types[0] ?? ''] ?? 'unknown';
  }

  private wrap(type: string): string {
    return type.includes(' | ') ? `(${type})` : type;
  }

  private object(schema: Schema, indent: string): string {
    const properties = Object.entries(schema.properties ?? {});
    // An object that holds exactly one of its keys (minProperties = maxProperties = 1): one of them.
    if (schema.maxProperties === 1 && schema.additionalProperties === false) {
      return properties.map(([name, value]) => `{ ${key(name)}: ${this.type(value, indent)} }`).join(' | ');
    }
    if (properties.length === 0) {
      const extra = schema.additionalProperties;
      return `Record<string, ${typeof extra === 'object' ? this.type(extra, indent) : 'unknown'}>`;
    }
    const inner = `${indent}  `;
    const required = new Set(schema.required ?? []);
    const lines = properties.map(([name, value]) => `${comment(value.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${this.type(value, inner)};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
}

export function specSchema(): Schema {
  return JSON.parse(readFileSync(path.join(ROOT, 'schemas', 'compute-spec.schema.json'), 'utf8')) as Schema;
}

export function expectedSpecTypesText(schema: Schema = specSchema()): string {
  const definitions = schema.definitions ?? {};
  const generator = new Generator(definitions);
  const parts = Object.entries(NAMES).map(([name, typeName]) => {
    const definition = definitions[name];
    if (!definition) throw new Error(`the schema has no definition ${name}`);
    return `${comment(definition.description, '')}export type ${typeName} = ${generator.type(definition, '')};\n`;
  });
  return [
    '// Generated from schemas/compute-spec.schema.json by test/unit/specs/specTypesFile.ts (docs/shapes.md).',
    '// Do not edit: change the schema, then `npm run compile-tests && node out/test/unit/specs/specTypesFile.js --write`.',
    '',
    ...parts,
  ].join('\n');
}

if (require.main === module && process.argv.includes('--write')) writeFileSync(SPEC_TYPES_FILE, expectedSpecTypesText());
