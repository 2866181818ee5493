import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * SQL lives in repositories: elsewhere in the API, no TypeORM DataSource or EntityManager and no .query(),
 * getRepository() or createQueryBuilder(). Services hold a Transaction (apps/api/src/database/transactions.ts)
 * and hand it to repositories. A controller imports no repository.
 */
const SQL_OUTSIDE_REPOSITORIES = 'SQL lives in *.repository.ts: call a repository (and Transactions.run for a transaction)';
const sqlImports = { name: 'typeorm', importNames: ['DataSource', 'EntityManager', 'QueryRunner', 'Repository', 'SelectQueryBuilder'], message: SQL_OUTSIDE_REPOSITORIES };
const sqlCalls = ['query', 'getRepository', 'createQueryBuilder'].map((name) => ({
  selector: `CallExpression[callee.property.name='${name}']`,
  message: SQL_OUTSIDE_REPOSITORIES,
}));
const repositoryImport = { group: ['**/*.repository', '**/*.repository.ts'], message: 'A controller calls a service, never a repository' };

/**
 * Import types are named only in the import formats' registry: a type's facts (libs/contracts/src/import-formats.ts),
 * its CSV dialect (libs/domain/import-formats/src/formats/) and its format (apps/api/src/imports/formats/). Elsewhere
 * code asks the format (importFormat(type), the facts) what the type does, instead of comparing or listing types.
 */
const IMPORT_TYPE_OUTSIDE_REGISTRY = 'Import types are named only in the formats registry: ask importFormat(type) or the contracts\' IMPORT_FORMAT_FACTS instead';
const IMPORT_TYPE_NAME = '/^[A-Z][A-Za-z]*Import$/';
const importTypeNames = [
  { selector: `Literal[value=${IMPORT_TYPE_NAME}]`, message: IMPORT_TYPE_OUTSIDE_REGISTRY },
  { selector: `Property[key.name=${IMPORT_TYPE_NAME}]`, message: IMPORT_TYPE_OUTSIDE_REGISTRY },
];
const IMPORT_FORMATS_REGISTRY = ['libs/contracts/src/import-formats.ts', 'libs/domain/import-formats/src/formats/**', 'apps/api/src/imports/formats/**'];
const TESTS = ['**/*.spec.ts', '**/*.spec.tsx', '**/*.e2e-spec.ts', 'apps/api/test/**', 'apps/admin/e2e/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'tmp/**', 'data/**', 'coverage/**', 'apps/api/src/database/migrations/*-*.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'libs/**/*.{ts,tsx}'],
    // The API client's types are generated from openapi.json, whose type enum the registry makes.
    ignores: [...TESTS, ...IMPORT_FORMATS_REGISTRY, 'apps/admin/src/lib/api/schema.d.ts'],
    rules: { 'no-restricted-syntax': ['error', ...importTypeNames] },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.repository.ts', 'apps/api/src/database/**', 'apps/api/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [sqlImports] }],
      'no-restricted-syntax': ['error', ...sqlCalls, ...importTypeNames],
    },
  },
  {
    // The registry names import types; SQL stays out of it as out of any other service code.
    files: ['apps/api/src/imports/formats/**/*.ts'],
    ignores: ['apps/api/src/**/*.repository.ts', 'apps/api/src/**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...sqlCalls] },
  },
  {
    files: ['apps/api/src/**/*.controller.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [sqlImports], patterns: [repositoryImport] }] },
  },
  {
    files: ['tools/**/*.{mjs,cjs,js}', 'apps/api/test/**/*.mjs', '*.js', '*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable', URL: 'readonly', Buffer: 'readonly', fetch: 'readonly', performance: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
);
