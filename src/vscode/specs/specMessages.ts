// The spec core's texts (src/core/specs/messages.ts), localized: diagnostics and platform checks read
// in the editor's language.

import * as vscode from 'vscode';
import { volumeStatusName } from '../ui/statusWords';
import type { SpecMessages } from '../../core/specs/messages';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';

function typeName(type: string): string {
  switch (type) {
    case 'integer':
      return vscode.l10n.t('a whole number');
    case 'number':
      return vscode.l10n.t('a number');
    case 'string':
      return vscode.l10n.t('text');
    case 'boolean':
      return vscode.l10n.t('true or false');
    case 'object':
      return vscode.l10n.t('an object');
    case 'array':
      return vscode.l10n.t('a list');
    default:
      return type;
  }
}

function jsonSyntax(code: string): string {
  switch (code) {
    case 'InvalidSymbol':
      return vscode.l10n.t('Unexpected character.');
    case 'InvalidNumberFormat':
      return vscode.l10n.t('Not a valid number.');
    case 'PropertyNameExpected':
      return vscode.l10n.t('A property name in double quotes is expected.');
    case 'ValueExpected':
      return vscode.l10n.t('A value is expected.');
    case 'ColonExpected':
      return vscode.l10n.t('A colon is expected.');
    case 'CommaExpected':
      return vscode.l10n.t('A comma is expected.');
    case 'CloseBraceExpected':
      return vscode.l10n.t('A closing } is expected.');
    case 'CloseBracketExpected':
      return vscode.l10n.t('A closing ] is expected.');
    case 'EndOfFileExpected':
      return vscode.l10n.t('Nothing may follow the top-level value.');
    case 'InvalidCommentToken':
      return vscode.l10n.t('Comments are not allowed in JSON (use a .yaml spec for comments).');
    case 'UnexpectedEndOfString':
      return vscode.l10n.t('The string is not closed.');
    default:
      return vscode.l10n.t('JSON syntax error ({0}).', code);
  }
}

export const LOCALIZED_SPEC_MESSAGES: SpecMessages = {
  theFile: () => vscode.l10n.t('the file'),
  unknownFieldSuggest: (name, where, close) => vscode.l10n.t('Unknown field "{0}" in {1}: did you mean "{2}"?', name, where, close),
  unknownField: (name, where, known) => vscode.l10n.t('Unknown field "{0}" in {1}. Known fields: {2}.', name, where, known),
  needsField: (where, field) => vscode.l10n.t('{0} needs "{1}".', where, field),
  memoryAsText: (mi, text) => vscode.l10n.t('Memory here is a number in Mi (binary megabytes), not text: write {0} for "{1}".', mi, text),
  memoryNotNumber: () => vscode.l10n.t('Memory here is a whole number in Mi (binary megabytes), e.g. 16384 for 16 Gi.'),
  memoryTiny: (value, mi) => vscode.l10n.t('{0} Mi is tiny: this field is in Mi (binary megabytes). If you meant {0} GiB, write {1}.', value, mi),
  wrongType: (where, types, shown) => vscode.l10n.t('{0} must be {1}, not {2}.', where, types.map(typeName).join(vscode.l10n.t(' or ')), shown),
  notOneOf: (where, allowed) => vscode.l10n.t('{0} must be one of {1}.', where, allowed),
  mustBe: (where, value) => vscode.l10n.t('{0} must be {1}.', where, value),
  envValueForm: (where) => vscode.l10n.t('{0}: an env value is a string, or a secret reference {"secret": "name"} or {"env": "NAME"}.', where),
  invalidName: (where) => vscode.l10n.t('{0} is not a valid name.', where),
  invalidImage: (where) => vscode.l10n.t('{0} has an invalid form: use registry/repository:tag.', where),
  invalidServiceName: (where) => vscode.l10n.t('{0} has an invalid form: lowercase letters, digits and -.', where),
  nameControl: (where) => vscode.l10n.t('{0} holds a control character (C0 or C1, e.g. an escape sequence): names are shown in terminals and lists.', where),
  invalidPath: (where) => vscode.l10n.t('{0} has an invalid form: an absolute path starting with /.', where),
  invalid: (where, detail) => vscode.l10n.t('{0} {1}.', where, detail),
  duplicateContainer: (name) => vscode.l10n.t('Container name "{0}" is used twice.', name),
  envOneLine: (name) => vscode.l10n.t('{0}: an env value is one line (the platform keeps env as KEY=VALUE lines).', name),
  spotNeedsEstimate: () => vscode.l10n.t('A spot job needs "estimatedSeconds" (a little above the real run time, below timeoutSeconds).'),
  estimateAboveTimeout: () => vscode.l10n.t('estimatedSeconds is above timeoutSeconds: the job would be killed first.'),
  roundsAboveTimeout: (rounds, seconds) => vscode.l10n.t('The completions run in {0} rounds of parallel pods, about {1} at the estimated run time: beyond timeoutSeconds, the job would be killed first.', rounds, durationText(seconds)),
  undeclaredVolume: (volume) => vscode.l10n.t('Volume "{0}" is not declared at the top of the job.', volume),
  tooLarge: (kb) => vscode.l10n.t('The file is larger than {0} KB; a spec file is a few KB.', kb),
  tooDeep: (levels) => vscode.l10n.t('The file nests deeper than {0} levels; a spec file does not.', levels),
  tooManyValues: (limit) => vscode.l10n.t('The file holds more values than the limit of {0}; a spec file holds a few hundred. Nothing after this point was checked.', limit),
  tooManyEntries: (limit) => vscode.l10n.t('This holds more than {0} entries; a spec file holds far fewer. The file was not checked further.', limit),
  tooManyAliases: (limit) => vscode.l10n.t('The file uses more than {0} aliases or merge keys; a spec file needs far fewer. The file was not checked further.', limit),
  duplicateKey: (key) => vscode.l10n.t('"{0}" is set twice in this mapping.', key),
  jsonSyntax,
  soldOut: (device, region) => vscode.l10n.t('{0} is sold out in {1}: a deploy would stay Pending.', device, region),
  lowStock: (stock, device, region, wanted) => vscode.l10n.t('Only {0} of {1} in stock in {2}; {3} wanted.', counted(stock, 'node'), device, region, wanted),
  inStock: (device, region, stock, price) => vscode.l10n.t('{0} in {1}: {2} in stock, {3} per node.', device, region, stock, price),
  taskUnreadable: (taskId, reason) => vscode.l10n.t('Task {0} cannot be read: {1}', taskId, reason),
  nasNotChecked: () => vscode.l10n.t('NAS volume not checked: this version cannot list NAS volumes.'),
  nasMissing: (id) => vscode.l10n.t('NAS volume {0} does not exist on this account.', id),
  nasOtherRegion: (id, volumeRegion, taskRegion) => vscode.l10n.t('NAS volume {0} is in {1}, the task runs in {2}: a volume mounts only in its own region.', id, volumeRegion, taskRegion),
  nasNotActive: (id, status) => vscode.l10n.t('NAS volume {0} is {1}, not Active: only an Active volume mounts.', id, volumeStatusName(status)),
  jobCannotUpdate: (id) => vscode.l10n.t('This file already created job {0}. Jobs cannot be updated on the platform: Deploy needs a new job (remove "taskId").', id),
  noSuchCount: (gpu, count, counts) => vscode.l10n.t('No {0} × {1} resource is listed; GPUs per node of {0}: {2}.', gpu, count, counts),
  noSuchModel: (gpu, models) => vscode.l10n.t('No resource with GPU "{0}" is listed. Listed models: {1}.', gpu, models),
  noDeviceFits: (gpu, count, listed) => vscode.l10n.t('No {0} × {1} device matches device/memoryMi/cpuCores; listed: {2}.', gpu, count, listed),
  notInRegion: (gpu, count, region, regions) => vscode.l10n.t('{0} × {1} is not offered in region "{2}"; it is in: {3}.', gpu, count, region, regions),
  ambiguous: (gpu, count, region, devices) => vscode.l10n.t('Several devices fit {0} × {1} in {2}: {3}. Add "device", "memoryMi" or "cpuCores" to pick one.', gpu, count, region, devices),
};
