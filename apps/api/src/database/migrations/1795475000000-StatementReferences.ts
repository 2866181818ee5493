import { MigrationInterface, QueryRunner } from 'typeorm';
import { ImportRowsReference1795471000000 } from './1795471000000-ImportRowsReference';

/**
 * References checked once per statement. A foreign key runs a lookup (and a row lock) for every row written, and a
 * cascade one query for every row deleted:
 * - the hot references of a publish (entries -> accounts, transactions -> entries and categories, even an always NULL
 *   merchant and parent entry) were a large share of a chunk's insert time
 *   (docs/performance.md#statement-level-references);
 * - deleting entries (a revert, an account, a family) ran the cascade of each table that refers to them per entry.
 * These triggers do what the keys did, set-based:
 * - a write must name existing rows, which it locks FOR KEY SHARE so they cannot be deleted before it commits (an
 *   update checks only the keys it changes);
 * - deleting a referenced row deletes (or sets to NULL) what refers to it;
 * - a referenced key never changes.
 * import_rows -> imports, the first reference kept this way (ImportRowsReference), now uses the same functions.
 */
interface Reference {
  table: string;
  columns: string;
  /** The name of the foreign key this replaces, and its definition, for down(). */
  foreignKey: string;
  references: string;
  referencedColumns: string;
  onDelete: 'cascade' | 'set null';
}

const REFERENCES: Reference[] = [
  { table: 'entries', columns: 'account_id, family_id', foreignKey: 'FK_a855376c73dc9bae7c1a341af0b', references: 'accounts', referencedColumns: 'id, family_id', onDelete: 'cascade' },
  { table: 'entries', columns: 'parent_entry_id', foreignKey: 'FK_d8b983e5ca6f10ecf0499862551', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'transactions', columns: 'entry_id', foreignKey: 'FK_f9d5045b579bd77815fb635abca', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'transactions', columns: 'category_id', foreignKey: 'FK_c9e41213ca42d50132ed7ab2b0f', references: 'categories', referencedColumns: 'id', onDelete: 'set null' },
  { table: 'transactions', columns: 'merchant_id', foreignKey: 'FK_e80829a78860eadca0d60c8e21f', references: 'merchants', referencedColumns: 'id', onDelete: 'set null' },
  { table: 'taggings', columns: 'entry_id', foreignKey: 'FK_c86a7f1d908fd070124c33a6ad3', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'taggings', columns: 'tag_id', foreignKey: 'FK_b33c45b42abe6bec33910b71ade', references: 'tags', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'trades', columns: 'entry_id', foreignKey: 'FK_7a704bf6d6f90e5bc7ca963c428', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'valuations', columns: 'entry_id', foreignKey: 'FK_ea2402b065837a7f22191196352', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'transfers', columns: 'inflow_entry_id', foreignKey: 'FK_a32209cd5ab194f742c9d054c21', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
  { table: 'transfers', columns: 'outflow_entry_id', foreignKey: 'FK_38128d9f6f62a20775e3c3894e9', references: 'entries', referencedColumns: 'id', onDelete: 'cascade' },
];

const IMPORT_ROWS: Reference = {
  table: 'import_rows',
  columns: 'import_id',
  foreignKey: 'FK_c175270322bf4c2e99418c2aa9f',
  references: 'imports',
  referencedColumns: 'id',
  onDelete: 'cascade',
};

const quoted = (columns: string) => columns.split(', ').map((c) => `"${c}"`).join(', ');
const name = (r: Reference, what: string) => `${r.table}_${r.columns.split(', ')[0].replace(/_id$/, '')}_${what}`;

async function createReference(queryRunner: QueryRunner, r: Reference): Promise<void> {
  const args = `'${r.columns}', '${r.references}', '${r.referencedColumns}'`;
  await queryRunner.query(
    `CREATE TRIGGER "${name(r, 'insert')}" AFTER INSERT ON "${r.table}"
     REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION check_references(${args})`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${name(r, 'update')}" AFTER UPDATE ON "${r.table}"
     REFERENCING OLD TABLE AS was NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION check_references(${args})`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${name(r, 'on_delete')}" AFTER DELETE ON "${r.references}"
     REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_references('${r.table}', '${r.columns}', '${r.referencedColumns}', '${r.onDelete}')`,
  );
}

/** The referenced tables, each with its referenced key once. */
const referencedKeys = (references: Reference[]) => [...new Map(references.map((r) => [r.references, r.referencedColumns]))];

async function fixKey(queryRunner: QueryRunner, table: string, columns: string): Promise<void> {
  const changed = columns.split(', ').map((c) => `OLD."${c}" IS DISTINCT FROM NEW."${c}"`).join(' OR ');
  await queryRunner.query(
    `CREATE TRIGGER "${table}_key_fixed" BEFORE UPDATE OF ${quoted(columns)} ON "${table}"
     FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION refuse_key_change()`,
  );
}

async function dropReference(queryRunner: QueryRunner, r: Reference): Promise<void> {
  for (const what of ['insert', 'update']) await queryRunner.query(`DROP TRIGGER "${name(r, what)}" ON "${r.table}"`);
  await queryRunner.query(`DROP TRIGGER "${name(r, 'on_delete')}" ON "${r.references}"`);
}

const foreignKey = (r: Reference) =>
  `ALTER TABLE "${r.table}" ADD CONSTRAINT "${r.foreignKey}" FOREIGN KEY (${quoted(r.columns)}) REFERENCES "${r.references}"(${quoted(r.referencedColumns)}) ON DELETE ${r.onDelete.toUpperCase()} ON UPDATE NO ACTION`;

export class StatementReferences1795475000000 implements MigrationInterface {
  name = 'StatementReferences1795475000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // TG_ARGV: the writing table's key columns, the referenced table, its columns. NULL keys refer to nothing.
    await queryRunner.query(
      `CREATE FUNCTION check_references() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         named bigint;
         found bigint;
       BEGIN
         EXECUTE format(
           'WITH k AS (SELECT DISTINCT %1$s FROM written WHERE (%1$s) IS NOT NULL %4$s)
            SELECT (SELECT count(*) FROM k), (SELECT count(*) FROM (SELECT 1 FROM %2$I WHERE (%3$s) IN (SELECT * FROM k) FOR KEY SHARE) f)',
           TG_ARGV[0], TG_ARGV[1], TG_ARGV[2],
           CASE WHEN TG_OP = 'UPDATE' THEN format('EXCEPT SELECT %s FROM was', TG_ARGV[0]) ELSE '' END)
         INTO named, found;
         IF found < named THEN
           RAISE EXCEPTION 'insert or update on table "%" violates its foreign key to "%" (%): no such row', TG_TABLE_NAME, TG_ARGV[1], TG_ARGV[2]
             USING ERRCODE = 'foreign_key_violation';
         END IF;
         RETURN NULL;
       END $$`,
    );
    // TG_ARGV: the referring table, its key columns, this table's columns, 'cascade' or 'set null' (one column).
    await queryRunner.query(
      `CREATE FUNCTION delete_references() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         -- A statement trigger fires for a delete of no rows too: without this, entries -> entries would not end.
         IF NOT EXISTS (SELECT FROM gone) THEN RETURN NULL; END IF;
         IF TG_ARGV[3] = 'cascade' THEN
           EXECUTE format('DELETE FROM %I WHERE (%s) IN (SELECT %s FROM gone)', TG_ARGV[0], TG_ARGV[1], TG_ARGV[2]);
         ELSE
           EXECUTE format('UPDATE %I SET %2$s = NULL WHERE %2$s IN (SELECT %3$s FROM gone)', TG_ARGV[0], TG_ARGV[1], TG_ARGV[2]);
         END IF;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION refuse_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'the key of a row in "%" cannot change: other rows refer to it', TG_TABLE_NAME
           USING ERRCODE = 'foreign_key_violation';
       END $$`,
    );

    await queryRunner.query(`DROP TRIGGER "imports_delete_rows" ON "imports"`);
    await queryRunner.query(`DROP FUNCTION imports_delete_rows()`);
    for (const event of ['insert', 'update']) await queryRunner.query(`DROP TRIGGER "import_rows_reference_${event}" ON "import_rows"`);
    await queryRunner.query(`DROP FUNCTION import_rows_reference_imports()`);
    await createReference(queryRunner, IMPORT_ROWS);

    for (const r of REFERENCES) {
      await queryRunner.query(`ALTER TABLE "${r.table}" DROP CONSTRAINT "${r.foreignKey}"`);
      await createReference(queryRunner, r);
    }
    for (const [table, columns] of referencedKeys([IMPORT_ROWS, ...REFERENCES])) await fixKey(queryRunner, table, columns);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of referencedKeys([IMPORT_ROWS, ...REFERENCES])) await queryRunner.query(`DROP TRIGGER "${table}_key_fixed" ON "${table}"`);
    for (const r of REFERENCES) {
      await dropReference(queryRunner, r);
      await queryRunner.query(foreignKey(r));
    }
    await dropReference(queryRunner, IMPORT_ROWS);
    await queryRunner.query(foreignKey(IMPORT_ROWS));
    await new ImportRowsReference1795471000000().up(queryRunner);
    await queryRunner.query(`DROP FUNCTION refuse_key_change()`);
    await queryRunner.query(`DROP FUNCTION delete_references()`);
    await queryRunner.query(`DROP FUNCTION check_references()`);
  }
}
