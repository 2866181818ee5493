// Proves the lint rules that keep SQL in repositories still bite: each deliberate break below must be reported,
// and the same code in a repository must pass. Run by `npm run lint`; exits 1 naming a break that went unnoticed.
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

const cases = [
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: "import { DataSource } from 'typeorm';\nexport const x = (d: DataSource) => d;\n" },
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: "export const x = (m: { query(s: string): unknown }) => m.query('SELECT 1');\n" },
  { file: 'apps/api/src/example/example.service.ts', broken: true, code: 'export const x = (m: { getRepository(e: unknown): unknown }) => m.getRepository(Object);\n' },
  { file: 'apps/api/src/example/example.controller.ts', broken: true, code: "import { ExampleRepository } from './example.repository';\nexport const x = ExampleRepository;\n" },
  { file: 'apps/api/src/example/example.repository.ts', broken: false, code: "import { DataSource } from 'typeorm';\nexport const x = (d: DataSource) => d.query('SELECT 1');\n" },
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
