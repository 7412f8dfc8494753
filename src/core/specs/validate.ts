// Validates a spec file's text against the one JSON Schema (schemas/compute-spec.schema.json, the
// same file the editor uses for completion and hover) with ajv, for JSON and YAML alike, and turns
// each problem into a diagnostic on the line/column range of the field it concerns. Unknown fields
// suggest the nearest known name; memory given as "16GB" or as a small number that reads as GiB is
// flagged with the value in Mi.

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import schemaJson from '../../../schemas/compute-spec.schema.json';
import { parseSource, type ParsedSource, type Span } from './sourceMap';
import { ENGLISH, type SpecMessages } from './messages';
import { formatPath, type Spec, type SpecDiagnostic, type SpecFormat, type SpecPath } from './types';

/** At most this many diagnostics per file (the first ones matter; a broken file can have thousands). */
export const MAX_DIAGNOSTICS = 100;

export const SPEC_SCHEMA = schemaJson as Record<string, unknown>;

/** Memory below this many Mi is almost surely a GiB count typed into a Mi field. */
const PLAUSIBLE_MIN_MI = 64;

let compiled: ValidateFunction | undefined;
/** The messages of the validation running now (ajv keywords are compiled once, messages vary per call). */
let current: SpecMessages = ENGLISH;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  // Editor-only keywords: VS Code reads them for messages and hover; ajv only needs to know them.
  ajv.addKeyword({ keyword: 'errorMessage' });
  ajv.addKeyword({ keyword: 'patternErrorMessage' });
  ajv.addKeyword({ keyword: 'markdownDescription' });
  ajv.addKeyword({
    keyword: 'x-unit',
    schemaType: 'string',
    errors: true,
    validate: function checkUnit(unit: string, data: unknown): boolean {
      const problem = unitProblem(unit, data, current);
      if (!problem) return true;
      (checkUnit as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: 'x-unit', message: problem.message, params: { severity: problem.severity, ...(problem.mi === undefined ? {} : { mi: problem.mi }) } }];
      return false;
    },
  });
  compiled = ajv.compile(SPEC_SCHEMA);
  return compiled;
}

const SIZE = /^\s*(\d+(?:\.\d+)?)\s*([kmgt])?(i?b?|i)?\s*$/i;

/** What is wrong with a value for a field in `unit` (only Mi is used), or undefined. */
export function unitProblem(unit: string, data: unknown, messages: SpecMessages = ENGLISH): { message: string; severity: 'error' | 'warning'; mi?: number } | undefined {
  if (unit !== 'Mi') return undefined;
  if (typeof data === 'string') {
    const match = SIZE.exec(data.slice(0, 64));
    if (match) {
      const amount = Number(match[1]);
      const scale = (match[2] ?? 'm').toLowerCase();
      const mi = Math.round(amount * ({ k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 } as Record<string, number>)[scale]!);
      return { message: messages.memoryAsText(mi, data.trim()), severity: 'error', mi };
    }
    return { message: messages.memoryNotNumber(), severity: 'error' };
  }
  if (typeof data === 'number' && Number.isFinite(data) && data > 0 && data < PLAUSIBLE_MIN_MI) {
    return { message: messages.memoryTiny(data, data * 1024), severity: 'warning' };
  }
  return undefined;
}

export interface SpecValidation {
  /** The spec when the text parses and nothing is an error (warnings allowed). */
  spec?: Spec;
  /** The parsed value even when invalid (for best-effort features such as CodeLens). */
  value: unknown;
  diagnostics: SpecDiagnostic[];
  source: ParsedSource;
}

function pathOf(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Levenshtein distance, capped: names are short; longer input is cut first. */
function distance(a: string, b: string): number {
  const x = a.slice(0, 64).toLowerCase();
  const y = b.slice(0, 64).toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

function suggestion(unknown: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(unknown, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(unknown.length / 3)) ? best : undefined;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

interface Problem {
  path: SpecPath;
  part: 'key' | 'value';
  message: string;
  severity: 'error' | 'warning';
  origin?: string;
  fix?: { kind: 'rename' | 'mebibytes'; value: string };
}

function describe(error: ErrorObject, messages: SpecMessages): Problem | undefined {
  const path = pathOf(error.instancePath);
  const where = formatPath(path) || messages.theFile();
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      const known = Object.keys(properties).filter((key) => key !== '$schema');
      const close = suggestion(name, known);
      return {
        path: [...path, name],
        part: 'key',
        severity: 'error',
        message: close ? messages.unknownFieldSuggest(name, where, close) : messages.unknownField(name, where, known.join(', ')),
        ...(close ? { fix: { kind: 'rename' as const, value: close } } : {}),
      };
    }
    case 'required':
      return { path, part: 'key', severity: 'error', message: messages.needsField(where, String(params.missingProperty)) };
    case 'x-unit':
      return {
        path,
        part: 'value',
        severity: params.severity === 'warning' ? 'warning' : 'error',
        message: error.message ?? 'Wrong unit.',
        ...(typeof params.mi === 'number' ? { fix: { kind: 'mebibytes' as const, value: String(params.mi) } } : {}),
      };
    case 'type':
      return { path, part: 'value', severity: 'error', message: messages.wrongType(where, (Array.isArray(params.type) ? params.type : [params.type]).map(String), show(error.data)) };
    case 'enum':
      return { path, part: 'value', severity: 'error', message: messages.notOneOf(where, (params.allowedValues as unknown[]).map(show).join(', ')) };
    case 'const':
      return { path, part: 'value', severity: 'error', message: messages.mustBe(where, show(params.allowedValue)) };
    case 'anyOf':
    case 'oneOf': {
      // The schema's only anyOf is an env value (string or secret reference); its errorMessage says so in the editor.
      return { path, part: 'value', severity: 'error', message: messages.envValueForm(where) };
    }
    case 'pattern':
      return { path, part: 'value', severity: 'error', message: patternMessage(path, where, messages) };
    case 'propertyNames':
      return undefined; // reported by the nested 'pattern' error on the name
    case 'if':
      return undefined; // the branch's own errors say what is wrong
    default:
      return { path, part: 'value', severity: 'error', message: messages.invalid(where, error.message ?? 'is not valid') };
  }
}

function patternMessage(path: SpecPath, where: string, messages: SpecMessages): string {
  const last = path.at(-1);
  if (last === 'image') return messages.invalidImage(where);
  // The task's or job's own name (top level): any text but control characters (C0 and C1).
  if (last === 'name' && path.length === 1) return messages.nameControl(where);
  if (last === 'name') return messages.invalidServiceName(where);
  if (last === 'targetDir') return messages.invalidPath(where);
  return messages.invalidName(where);
}

/** Validates the text of a spec file; linear in its size (bounded before any parser runs). */
export function validateSpecText(text: string, format: SpecFormat, messages: SpecMessages = ENGLISH): SpecValidation {
  const source = parseSource(text, format, messages);
  const diagnostics: SpecDiagnostic[] = [];
  const push = (span: Span, message: string, severity: SpecDiagnostic['severity'], path: SpecPath, origin?: string, fix?: Problem['fix']): void => {
    if (diagnostics.length >= MAX_DIAGNOSTICS) return;
    const diagnostic: SpecDiagnostic = { start: source.positionAt(span.start), end: source.positionAt(span.end), message, severity, path: formatPath(path) };
    if (origin !== undefined) diagnostic.origin = origin;
    // A key in JSON keeps its quotes; a YAML key and any memory number are written bare.
    if (fix) diagnostic.fix = { ...fix, text: fix.kind === 'rename' && format === 'json' ? JSON.stringify(fix.value) : fix.value };
    diagnostics.push(diagnostic);
  };
  // Size, depth and shape refusals are ours alone; parser errors are 'syntax' (the JSON service reports them too).
  for (const error of source.syntaxErrors) push(error.span, error.message, 'error', [], error.refusal ? undefined : 'syntax');
  if (source.syntaxErrors.length > 0 || source.value === undefined) return { value: source.value, diagnostics, source };

  const validate = validator();
  current = messages;
  const valid = validate(source.value);
  current = ENGLISH;
  const errors = valid ? [] : (validate.errors ?? []);
  // One message per place: a unit or anyOf problem explains the type/branch errors at or under it.
  const explains = (keyword: string): boolean => keyword === 'x-unit' || keyword === 'anyOf' || keyword === 'oneOf';
  const explainedPaths = new Set(errors.filter((error) => explains(error.keyword)).map((error) => error.instancePath));
  // Prefix checks walk the path's own parts (depth ≤ MAX_SPEC_DEPTH), not the list of errors.
  const underExplained = (instancePath: string): boolean => {
    for (let cut = instancePath.length; cut >= 0; cut = instancePath.lastIndexOf('/', cut - 1)) {
      if (explainedPaths.has(instancePath.slice(0, cut))) return true;
      if (cut <= 0) break;
    }
    return false;
  };
  const seen = new Set<string>();
  for (const error of errors) {
    if (diagnostics.length >= MAX_DIAGNOSTICS) break;
    if (!explains(error.keyword) && explainedPaths.size > 0 && underExplained(error.instancePath)) continue;
    // Described lazily: suggestions cost a little per error, and only the first diagnostics are shown.
    const problem = describe(error, messages);
    if (!problem) continue;
    const dedupe = `${problem.path.join('/')}|${problem.message}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    push(source.locate(problem.path, problem.part), problem.message, problem.severity, problem.path, problem.origin ?? error.keyword, problem.fix);
  }
  for (const extra of semanticProblems(source.value, messages)) push(source.locate(extra.path, extra.part), extra.message, extra.severity, extra.path);
  diagnostics.sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character);
  const ok = !diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  return { value: source.value, diagnostics, source, ...(ok ? { spec: source.value as Spec } : {}) };
}

/** Rules the schema does not express: unique container names, Spot needs an estimate, declared volumes. */
function semanticProblems(value: unknown, messages: SpecMessages): Problem[] {
  const problems: Problem[] = [];
  if (typeof value !== 'object' || value === null) return problems;
  const spec = value as Record<string, unknown>;
  const services = Array.isArray(spec.services) ? (spec.services as Record<string, unknown>[]) : [];
  const names = new Set<string>();
  services.forEach((service, index) => {
    if (typeof service !== 'object' || service === null) return;
    const env = typeof service.env === 'object' && service.env !== null ? (service.env as Record<string, unknown>) : {};
    for (const [name, value] of Object.entries(env)) {
      if (typeof value === 'string' && /[\r\n]/.test(value)) problems.push({ path: ['services', index, 'env', name], part: 'value', severity: 'error', message: messages.envOneLine(name) });
    }
    if (typeof service.name !== 'string') return;
    if (names.has(service.name)) problems.push({ path: ['services', index, 'name'], part: 'value', severity: 'error', message: messages.duplicateContainer(service.name) });
    names.add(service.name);
  });
  if (spec.kind === 'job') {
    if (spec.spot === true && spec.estimatedSeconds === undefined) problems.push({ path: ['spot'], part: 'key', severity: 'error', message: messages.spotNeedsEstimate() });
    if (typeof spec.estimatedSeconds === 'number' && typeof spec.timeoutSeconds === 'number' && spec.estimatedSeconds > spec.timeoutSeconds) {
      problems.push({ path: ['estimatedSeconds'], part: 'value', severity: 'warning', message: messages.estimateAboveTimeout() });
    } else if (typeof spec.estimatedSeconds === 'number' && typeof spec.timeoutSeconds === 'number' && typeof spec.completions === 'number' && typeof spec.parallelism === 'number' && spec.completions > 0 && spec.parallelism > 0) {
      // The timeout holds for the whole job: completions run in rounds of `parallelism` pods.
      const rounds = Math.ceil(spec.completions / Math.min(spec.parallelism, spec.completions));
      if (rounds > 1 && rounds * spec.estimatedSeconds > spec.timeoutSeconds) problems.push({ path: ['timeoutSeconds'], part: 'value', severity: 'warning', message: messages.roundsAboveTimeout(rounds, rounds * spec.estimatedSeconds) });
    }
    // A memory mount names a memory volume and a disk mount a disk volume (the platform refuses a mix: docs/sandbox-rules.md).
    const declared = {
      sharedDiskMounts: new Set(Array.isArray(spec.sharedDiskVolumes) ? spec.sharedDiskVolumes : []),
      sharedMemoryMounts: new Set(Array.isArray(spec.sharedMemoryVolumes) ? (spec.sharedMemoryVolumes as { name?: unknown }[]).map((volume) => volume?.name) : []),
    };
    services.forEach((service, index) => {
      for (const key of ['sharedMemoryMounts', 'sharedDiskMounts'] as const) {
        const mounts = Array.isArray(service?.[key]) ? (service[key] as { volume?: unknown }[]) : [];
        mounts.forEach((mount, mountIndex) => {
          if (typeof mount?.volume === 'string' && !declared[key].has(mount.volume)) problems.push({ path: ['services', index, key, mountIndex, 'volume'], part: 'value', severity: 'error', message: messages.undeclaredVolume(mount.volume) });
        });
      }
    });
  }
  return problems;
}
