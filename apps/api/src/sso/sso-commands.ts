import type { Command } from '../cli/command';
import { loadConfig } from '../config/config';

const dryRunFromEnv = () => process.env.DRY_RUN === 'true';

/** Operator commands for apps/api/src/cli/cli.ts; the work is in ./sso-cli, loaded when a command runs. */
export const SSO_COMMANDS: Record<string, Command> = {
  'sso_providers:seed': {
    summary: 'Create/update SSO providers from config/auth.yml (DRY_RUN=true previews)',
    usage: '[--file config/auth.yml]',
    options: { file: { type: 'string' } },
    required: [],
    async run(values, db) {
      const { seedProvidersTask } = await import('./sso-cli');
      const config = loadConfig();
      const code = await seedProvidersTask(db, config, values.file ?? config.sso.providersFile, dryRunFromEnv(), console.log);
      if (code) throw new Error('some providers were not saved');
    },
  },
  'sso_providers:list': {
    summary: 'List the SSO providers stored in the database',
    usage: '',
    options: {},
    required: [],
    async run(_values, db) {
      const { listProvidersTask } = await import('./sso-cli');
      await listProvidersTask(db, console.log);
    },
  },
  'security:backfill_encryption': {
    summary: "Encrypt plaintext provider secrets and re-encrypt them and removed identities' labels under custom keys (DRY_RUN=true previews)",
    usage: '',
    options: {},
    required: [],
    async run(_values, db) {
      const { backfillEncryptionTask } = await import('./sso-cli');
      const result = await backfillEncryptionTask(db, loadConfig(), dryRunFromEnv());
      console.log(JSON.stringify(result));
      if (!result.ok) throw new Error('some values could not be decrypted with the current or the SECRET_KEY_BASE key');
    },
  },
};
