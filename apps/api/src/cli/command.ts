import type { CommandDatabase } from '../database/command-database';

/**
 * One operator command. The table of commands must stay cheap to load (`--help` reads only it), so a command loads
 * its services inside `check` and `run`.
 */
export interface Command {
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; default?: string }>;
  required: string[];
  /**
   * The command takes a password as `values.password`: typed at a prompt that does not echo it, or read from standard
   * input with --password-stdin. Never an argument, which npm prints in its banner and the shell keeps in its history.
   */
  password?: { prompt: (values: Record<string, string | undefined>) => string; confirm: boolean };
  /** Problems with the given values alone, found before the database is opened: usage errors (exit 2). */
  check?(values: Record<string, string | undefined>): string[] | Promise<string[]>;
  /** Loads the modules `run` uses; called while the database starts, so loading and starting overlap. */
  preload?(): Promise<unknown>;
  /** Builds the repositories and services it uses on `db`. */
  run(values: Record<string, string | undefined>, db: CommandDatabase): Promise<void>;
}
