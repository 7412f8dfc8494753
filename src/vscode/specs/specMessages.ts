// The spec core's texts (src/core/specs/messages.ts), localized: diagnostics and platform checks read
// in the editor's language.

import * as vscode from 'vscode';
import type { SpecMessages } from '../../core/specs/messages';

const t = vscode.l10n.t;

function typeName(type: string): string {
  switch (type) {
    case 'integer':
      return t('a whole number');
    case 'number':
      return t('a number');
    case 'string':
      return t('text');
    case 'boolean':
      return t('true or false');
    case 'object':
      return t('an object');
    case 'array':
      return t('a list');
    default:
      return type;
  }
}

function jsonSyntax(code: string): string {
  switch (code) {
    case 'InvalidSymbol':
      return t('Unexpected character.');
    case 'InvalidNumberFormat':
      return t('Not a valid number.');
    case 'PropertyNameExpected':
      return t('A property name in double quotes is expected.');
    case 'ValueExpected':
      return t('A value is expected.');
    case 'ColonExpected':
      return t('A colon is expected.');
    case 'CommaExpected':
      return t('A comma is expected.');
    case 'CloseBraceExpected':
      return t('A closing } is expected.');
    case 'CloseBracketExpected':
      return t('A closing ] is expected.');
    case 'EndOfFileExpected':
      return t('Nothing may follow the top-level value.');
    case 'InvalidCommentToken':
      return t('Comments are not allowed in JSON (use a .yaml spec for comments).');
    case 'UnexpectedEndOfString':
      return t('The string is not closed.');
    default:
      return t('JSON syntax error ({0}).', code);
  }
}

export const LOCALIZED_SPEC_MESSAGES: SpecMessages = {
  theFile: () => t('the file'),
  unknownFieldSuggest: (name, where, close) => t('Unknown field "{0}" in {1}: did you mean "{2}"?', name, where, close),
  unknownField: (name, where, known) => t('Unknown field "{0}" in {1}. Known fields: {2}.', name, where, known),
  needsField: (where, field) => t('{0} needs "{1}".', where, field),
  memoryAsText: (mi, text) => t('Memory here is a number in Mi (binary megabytes), not text: write {0} for "{1}".', mi, text),
  memoryNotNumber: () => t('Memory here is a whole number in Mi (binary megabytes), e.g. 16384 for 16 Gi.'),
  memoryTiny: (value, mi) => t('{0} Mi is tiny: this field is in Mi (binary megabytes). If you meant {0} GiB, write {1}.', value, mi),
  wrongType: (where, types, shown) => t('{0} must be {1}, not {2}.', where, types.map(typeName).join(t(' or ')), shown),
  notOneOf: (where, allowed) => t('{0} must be one of {1}.', where, allowed),
  mustBe: (where, value) => t('{0} must be {1}.', where, value),
  envValueForm: (where) => t('{0}: an env value is a string, or a secret reference {"secret": "name"} or {"env": "NAME"}.', where),
  invalidName: (where) => t('{0} is not a valid name.', where),
  invalidImage: (where) => t('{0} has an invalid form: use registry/repository:tag.', where),
  invalidServiceName: (where) => t('{0} has an invalid form: lowercase letters, digits and -.', where),
  invalidPath: (where) => t('{0} has an invalid form: an absolute path starting with /.', where),
  invalid: (where, detail) => t('{0} {1}.', where, detail),
  duplicateContainer: (name) => t('Container name "{0}" is used twice.', name),
  envOneLine: (name) => t('{0}: an env value is one line (the platform keeps env as KEY=VALUE lines).', name),
  spotNeedsEstimate: () => t('A spot job needs "estimatedSeconds" (a little above the real run time, below timeoutSeconds).'),
  estimateAboveTimeout: () => t('estimatedSeconds is above timeoutSeconds: the job would be killed first.'),
  undeclaredVolume: (volume) => t('Volume "{0}" is not declared at the top of the job.', volume),
  tooLarge: (kb) => t('The file is larger than {0} KB; a spec file is a few KB.', kb),
  tooDeep: (levels) => t('The file nests deeper than {0} levels; a spec file does not.', levels),
  duplicateKey: (key) => t('"{0}" is set twice in this mapping.', key),
  jsonSyntax,
  soldOut: (device, region) => t('{0} is sold out in {1}: a deploy would stay Pending.', device, region),
  lowStock: (stock, device, region, wanted) => t('Only {0} node(s) of {1} in stock in {2}; {3} wanted.', stock, device, region, wanted),
  inStock: (device, region, stock, price) => t('{0} in {1}: {2} in stock, {3} per node.', device, region, stock, price),
  taskUnreadable: (taskId, reason) => t('Task {0} cannot be read: {1}', taskId, reason),
  nasNotChecked: () => t('NAS volume not checked: this version cannot list NAS volumes.'),
  nasMissing: (id) => t('NAS volume {0} does not exist on this account.', id),
  nasOtherRegion: (id, volumeRegion, taskRegion) => t('NAS volume {0} is in {1}, the task runs in {2}: a volume mounts only in its own region.', id, volumeRegion, taskRegion),
  nasNotActive: (id, status) => t('NAS volume {0} is {1}, not Active.', id, status),
  noSuchCount: (gpu, count, counts) => t('No {0} × {1} resource is listed; {0} comes in {2} GPU(s) per node.', gpu, count, counts),
  noSuchModel: (gpu, models) => t('No resource with GPU "{0}" is listed. Listed models: {1}.', gpu, models),
  noDeviceFits: (gpu, count, listed) => t('No {0} × {1} device matches device/memoryMi/cpuCores; listed: {2}.', gpu, count, listed),
  notInRegion: (gpu, count, region, regions) => t('{0} × {1} is not offered in region "{2}"; it is in: {3}.', gpu, count, region, regions),
  ambiguous: (gpu, count, region, devices) => t('Several devices fit {0} × {1} in {2}: {3}. Add "device", "memoryMi" or "cpuCores" to pick one.', gpu, count, region, devices),
};
