// Lint rules that keep the layer boundaries: core and shared never see the editor or the DOM,
// the webview reaches the host only through src/shared.
import tseslint from 'typescript-eslint';

const noEditor = { name: 'vscode', message: 'Only src/vscode may import the editor API.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.vscode-test/**', '*.vsix'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/mcp/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noEditor] }],
      'no-restricted-globals': ['error', 'document', 'window', 'navigator'],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noEditor],
        patterns: [{ group: ['**/core/**', '**/vscode/**', 'node:*'], message: 'The webview talks to the host only through src/shared.' }],
      }],
    },
  },
);
