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
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.repository.ts', 'apps/api/src/database/**', 'apps/api/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [sqlImports] }],
      'no-restricted-syntax': ['error', ...sqlCalls],
    },
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
