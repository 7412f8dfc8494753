// Every text the spec core shows a person (diagnostics, platform checks), as one interface: the
// editor passes a localized implementation (src/vscode/specs/specMessages.ts, vscode.l10n.t), the
// tools and tests use this English one. Values are passed in, never concatenated into templates.

import { durationEnglish } from '../duration';

export interface SpecMessages {
  theFile(): string;
  unknownFieldSuggest(name: string, where: string, close: string): string;
  unknownField(name: string, where: string, known: string): string;
  needsField(where: string, field: string): string;
  memoryAsText(mi: number, text: string): string;
  memoryNotNumber(): string;
  memoryTiny(value: number, mi: number): string;
  wrongType(where: string, types: string[], shown: string): string;
  notOneOf(where: string, allowed: string): string;
  mustBe(where: string, value: string): string;
  envValueForm(where: string): string;
  invalidName(where: string): string;
  invalidImage(where: string): string;
  invalidServiceName(where: string): string;
  nameControl(where: string): string;
  invalidPath(where: string): string;
  invalid(where: string, detail: string): string;
  duplicateContainer(name: string): string;
  envOneLine(name: string): string;
  spotNeedsEstimate(): string;
  estimateAboveTimeout(): string;
  roundsAboveTimeout(rounds: number, seconds: number): string;
  undeclaredVolume(volume: string): string;
  tooLarge(kb: number): string;
  tooDeep(levels: number): string;
  tooManyValues(limit: number): string;
  tooManyEntries(limit: number): string;
  tooManyAliases(limit: number): string;
  duplicateKey(key: string): string;
  jsonSyntax(code: string): string;
  // Platform checks (runner.ts, offers.ts)
  soldOut(device: string, region: string): string;
  lowStock(stock: number, device: string, region: string, wanted: number): string;
  inStock(device: string, region: string, stock: number, price: string): string;
  taskUnreadable(taskId: number, reason: string): string;
  nasNotChecked(): string;
  nasMissing(id: number): string;
  nasOtherRegion(id: number, volumeRegion: string, taskRegion: string): string;
  nasNotActive(id: number, status: string): string;
  jobCannotUpdate(id: number): string;
  noSuchCount(gpu: string, count: number, counts: string): string;
  noSuchModel(gpu: string, models: string): string;
  noDeviceFits(gpu: string, count: number, listed: string): string;
  notInRegion(gpu: string, count: number, region: string, regions: string): string;
  ambiguous(gpu: string, count: number, region: string, devices: string): string;
}

const TYPE_NAMES: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', object: 'an object', array: 'a list', null: 'null' };
const JSON_SYNTAX: Record<string, string> = {
  InvalidSymbol: 'Unexpected character.',
  InvalidNumberFormat: 'Not a valid number.',
  PropertyNameExpected: 'A property name in double quotes is expected.',
  ValueExpected: 'A value is expected.',
  ColonExpected: 'A colon is expected.',
  CommaExpected: 'A comma is expected.',
  CloseBraceExpected: 'A closing } is expected.',
  CloseBracketExpected: 'A closing ] is expected.',
  EndOfFileExpected: 'Nothing may follow the top-level value.',
  InvalidCommentToken: 'Comments are not allowed in JSON (use a .yaml spec for comments).',
  UnexpectedEndOfString: 'The string is not closed.',
};

export const ENGLISH: SpecMessages = {
  theFile: () => 'the file',
  unknownFieldSuggest: (name, where, close) => `Unknown field "${name}" in ${where}: did you mean "${close}"?`,
  unknownField: (name, where, known) => `Unknown field "${name}" in ${where}. Known fields: ${known}.`,
  needsField: (where, field) => `${where} needs "${field}".`,
  memoryAsText: (mi, text) => `Memory here is a number in Mi (binary megabytes), not text: write ${mi} for "${text}".`,
  memoryNotNumber: () => 'Memory here is a whole number in Mi (binary megabytes), e.g. 16384 for 16 Gi.',
  memoryTiny: (value, mi) => `${value} Mi is tiny: this field is in Mi (binary megabytes). If you meant ${value} GiB, write ${mi}.`,
  wrongType: (where, types, shown) => `${where} must be ${types.map((type) => TYPE_NAMES[type] ?? type).join(' or ')}, not ${shown}.`,
  notOneOf: (where, allowed) => `${where} must be one of ${allowed}.`,
  mustBe: (where, value) => `${where} must be ${value}.`,
  envValueForm: (where) => `${where}: an env value is a string, or a secret reference {"secret": "name"} or {"env": "NAME"}.`,
  invalidName: (where) => `${where} is not a valid name.`,
  invalidImage: (where) => `${where} has an invalid form: use registry/repository:tag.`,
  invalidServiceName: (where) => `${where} has an invalid form: lowercase letters, digits and -.`,
  nameControl: (where) => `${where} holds a control character (C0 or C1, e.g. an escape sequence): names are shown in terminals and lists.`,
  invalidPath: (where) => `${where} has an invalid form: an absolute path starting with /.`,
  invalid: (where, detail) => `${where} ${detail}.`,
  duplicateContainer: (name) => `Container name "${name}" is used twice.`,
  envOneLine: (name) => `${name}: an env value is one line (the platform keeps env as KEY=VALUE lines).`,
  spotNeedsEstimate: () => 'A spot job needs "estimatedSeconds" (a little above the real run time, below timeoutSeconds).',
  estimateAboveTimeout: () => 'estimatedSeconds is above timeoutSeconds: the job would be killed first.',
  roundsAboveTimeout: (rounds, seconds) => `The completions run in ${rounds} rounds of parallel pods, about ${durationEnglish(seconds)} at the estimated run time: beyond timeoutSeconds, the job would be killed first.`,
  undeclaredVolume: (volume) => `Volume "${volume}" is not declared at the top of the job.`,
  tooLarge: (kb) => `The file is larger than ${kb} KB; a spec file is a few KB.`,
  tooDeep: (levels) => `The file nests deeper than ${levels} levels; a spec file does not.`,
  tooManyValues: (limit) => `The file holds more values than the limit of ${limit}; a spec file holds a few hundred. Nothing after this point was checked.`,
  tooManyEntries: (limit) => `This holds more than ${limit} entries; a spec file holds far fewer. The file was not checked further.`,
  tooManyAliases: (limit) => `The file uses more than ${limit} aliases or merge keys; a spec file needs far fewer. The file was not checked further.`,
  duplicateKey: (key) => `"${key}" is set twice in this mapping.`,
  jsonSyntax: (code) => JSON_SYNTAX[code] ?? `JSON syntax error (${code}).`,
  soldOut: (device, region) => `${device} is sold out in ${region}: a deploy would stay Pending.`,
  lowStock: (stock, device, region, wanted) => `Only ${stock} node(s) of ${device} in stock in ${region}; ${wanted} wanted.`,
  inStock: (device, region, stock, price) => `${device} in ${region}: ${stock} in stock, ${price} per node.`,
  taskUnreadable: (taskId, reason) => `Task ${taskId} cannot be read: ${reason}`,
  nasNotChecked: () => 'NAS volume not checked: this version cannot list NAS volumes.',
  nasMissing: (id) => `NAS volume ${id} does not exist on this account.`,
  nasOtherRegion: (id, volumeRegion, taskRegion) => `NAS volume ${id} is in ${volumeRegion}, the task runs in ${taskRegion}: a volume mounts only in its own region.`,
  nasNotActive: (id, status) => `NAS volume ${id} is ${status}, not Active: only an Active volume mounts.`,
  jobCannotUpdate: (id) => `This file already created job ${id}. Jobs cannot be updated on the platform: Deploy needs a new job (remove "taskId").`,
  noSuchCount: (gpu, count, counts) => `No ${gpu} × ${count} resource is listed; ${gpu} comes in ${counts} GPU(s) per node.`,
  noSuchModel: (gpu, models) => `No resource with GPU "${gpu}" is listed. Listed models: ${models}.`,
  noDeviceFits: (gpu, count, listed) => `No ${gpu} × ${count} device matches device/memoryMi/cpuCores; listed: ${listed}.`,
  notInRegion: (gpu, count, region, regions) => `${gpu} × ${count} is not offered in region "${region}"; it is in: ${regions}.`,
  ambiguous: (gpu, count, region, devices) => `Several devices fit ${gpu} × ${count} in ${region}: ${devices}. Add "device", "memoryMi" or "cpuCores" to pick one.`,
};
