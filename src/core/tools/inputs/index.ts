// Every tool's input schema, by family (docs/shapes.md): the definitions pick theirs from this module,
// which run.ts hands them; they import only its types, so zod stays out of activation.

export * as read from './readInputs';
export * as write from './writeInputs';
export * as jobs from './jobInputs';
export * as nas from './nasInputs';
export * as specs from './specInputs';
export * as machines from './machineInputs';
