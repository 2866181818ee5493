// Proves the lint rules that keep SQL in repositories and import types in the formats registry still bite: each
// deliberate break below must be reported, and the same code where it belongs (a repository, the registry) must pass. Run by `npm run lint`; exits 1 naming a break that went unnoticed.
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

const cases = [
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: "import { DataSource } from 'typeorm';\nexport const x = (d: DataSource) => d;\n" },
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: "export const x = (m: { query(s: string): unknown }) => m.query('SELECT 1');\n" },
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: 'export const x = (m: { getRepository(e: unknown): unknown }) => m.getRepository(Object);\n' },
  { file: 'apps/api/src/example/example.controller.ts', broken: true, code: "import { ExampleRepository } from './example.repository';\nexport const x = ExampleRepository;\n" },
  { file: 'apps/api/src/example/example.repository.ts', broken: false, code: "import { DataSource } from 'typeorm';\nexport const x = (d: DataSource) => d.query('SELECT 1');\n" },
  // Import types are named only in the formats registry: no comparison, list or type-keyed table elsewhere.
  { file: 'apps/api/src/imports/example.service.ts', broken: true, code: "export const x = (t: string) => t === 'QifImport';\n" },
  { file: 'apps/api/src/imports/example.service.ts', broken: true, code: "export const x = (t: string) => t !== 'ServiceImport';\n" },
  { file: 'apps/api/src/imports/publishing/example.publisher.ts', broken: true, code: "export const x = new Set(['TradeImport', 'QifImport']);\n" },
  { file: 'apps/api/src/imports/example.repository.ts', broken: true, code: "export const x = { MintImport: 1 };\n" },
  { file: 'apps/admin/src/features/imports/components/Example.tsx', broken: true, code: "export const x = (t: string) => t === 'TransactionImport';\n" },
  { file: 'libs/domain/import-formats/src/example.ts', broken: true, code: "export const x = (t: string) => t === 'YnabImport';\n" },
  { file: 'libs/contracts/src/example.ts', broken: true, code: "export const x = ['PdfImport'];\n" },
  { file: 'apps/api/src/imports/formats/example/example-format.ts', broken: false, code: "export const x = { type: 'ExampleImport' };\n" },
  { file: 'apps/api/src/imports/formats/example/example-format.ts', broken: true, code: "export const x = (m: { query(s: string): unknown }) => m.query('SELECT 1');\n" },
  { file: 'libs/domain/import-formats/src/formats/example.ts', broken: false, code: "export const x = { ExampleImport: 1 };\n" },
  { file: 'apps/api/test/example.e2e-spec.ts', broken: false, code: "export const x = { type: 'QifImport' };\n" },
];

let failures = 0;
for (const { file, broken, code } of cases) {
  const [result] = await eslint.lintText(code, { filePath: file });
  const reported = result.messages.some((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax');
  if (reported !== broken) {
    failures++;
    console.error(`${file}: expected ${broken ? 'a boundary error' : 'no boundary error'} for:\n${code}`);
  }
}
if (failures) process.exit(1);
console.log(`boundaries: ${cases.length} deliberate cases judged as expected`);
