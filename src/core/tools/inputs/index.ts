// Every tool's input schema, by family (docs/shapes.md): the definitions pick theirs from this module,
// which run.ts hands them; they import only its types, so zod stays out of activation.

export * as read from './readInputs';
