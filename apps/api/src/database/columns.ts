import { ColumnOptions, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

// Shared column shapes, so every table spells ids, money and timestamps the same way.

export const PrimaryUuid = () => PrimaryGeneratedColumn('uuid');

/** Money as integer minor units; pg returns bigint as string, so it is read back as a JS number. */
const bigintAsNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };
export const minorUnits = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'bigint',
  transformer: bigintAsNumber,
  ...options,
});

export const currencyCode = (options: ColumnOptions = {}): ColumnOptions => ({ type: 'char', length: 3, ...options });

export const CreatedAt = () => CreateDateColumn({ type: 'timestamptz' });
export const UpdatedAt = () => UpdateDateColumn({ type: 'timestamptz' });
