import type { Command } from '../cli/command';
import { loadConfig } from '../config/config';

/** Operator commands for apps/api/src/cli/cli.ts; the work is in ./audit-cli, loaded when a command runs. */
export const AUDIT_COMMANDS: Record<string, Command> = {
  'audit:retention': {
    summary: 'Apply AUDIT_RETENTION_TIER now: archive, purge old audit rows, expire archive files',
    usage: '',
    options: {},
    required: [],
    async run(_values, db) {
      const { retentionTask } = await import('./audit-cli');
      await retentionTask(db, loadConfig(), console.log);
    },
  },
  'audit:verify-archive': {
    summary: 'Check every audit archive file against its SHA-256 and signed manifest, and that none is missing from the chain',
    usage: '',
    options: {},
    required: [],
    async run(_values, db) {
      const { verifyArchiveTask } = await import('./audit-cli');
      if (await verifyArchiveTask(db, loadConfig(), console.log)) throw new Error('the audit archive failed verification');
    },
  },
};
