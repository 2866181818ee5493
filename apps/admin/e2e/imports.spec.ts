import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { createImport, newAccount, waitForImport } from '../../api/test/support/imports';
import { statementPdf } from '../../api/test/support/statement-pdfs';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const XLSX_FIXTURES = join(__dirname, '../../../libs/domain/import-formats/fixtures/xlsx');
const CSV = ['Date,Amount,Description,Account', '15.01.2024,-45.99,Grocer,Checking', '16.01.2024,2500.00,Payroll,Checking', '17.01.2024,-12.50,Cafe,Savings'].join('\n');

describe('browser: /imports', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const entries = (familyId: string) =>
    app.t.dataSource.query(
      `SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount, a.name AS account
         FROM entries e JOIN accounts a ON a.id = e.account_id WHERE e.family_id = $1 ORDER BY e.date`,
      [familyId],
    );

  /** Drops a file on the drop zone as a user would; bytes (a PDF) go over as base64. */
  async function dropFile(page: Page, name: string, content: string | Buffer, mimeType = 'text/csv'): Promise<void> {
    const dataTransfer = await page.evaluateHandle(
      ([fileName, text, base64, type]) => {
        const transfer = new DataTransfer();
        const body = base64 ? Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) : text;
        transfer.items.add(new File([body], fileName, { type }));
        return transfer;
      },
      [name, typeof content === 'string' ? content : '', typeof content === 'string' ? '' : content.toString('base64'), mimeType] as const,
    );
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer });
  }

  /** The text of the status message holding keyboard focus; null when focus fell to the page body. */
  const focusedStatus = (page: Page) => page.evaluate(() => document.activeElement?.closest('[role="status"]')?.textContent ?? null);

  it('uploads a dropped CSV with a column preview, shows row errors of a wrong date format, fixes it, publishes to completion and reverts', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/imports');
    await page.getByText('No imports yet.').waitFor();
    await screenshot(page, 'imports-empty');
    await page.getByRole('link', { name: 'New import' }).click();
    await page.getByRole('heading', { name: 'New import' }).waitFor();

    await dropFile(page, 'bank.csv', CSV);
    await page.getByText('Selected: bank.csv').waitFor();
    const preview = page.getByRole('table', { name: /Preview of the first 3 rows/ });
    await preview.getByRole('cell', { name: 'Payroll' }).waitFor();
    // Columns are guessed from the headers and can be changed.
    expect(await page.getByLabel('Date column').inputValue()).toBe('Date');
    expect(await page.getByLabel('Amount column').inputValue()).toBe('Amount');
    expect(await page.getByLabel('Account column').inputValue()).toBe('Account');
    await page.getByLabel('Name column').selectOption('Description');
    // Left empty, the date format would be told from the dates; the one given is wrong for them.
    await page.getByLabel('Date format').fill('%Y-%m-%d');
    await screenshot(page, 'imports-new');
    await page.getByRole('button', { name: 'Upload' }).click();

    // The dates are day-first, the format given %Y-%m-%d: every row has an error and publishing is off.
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: /Transaction import/ }).waitFor();
    await page.getByText("Row 1: date '15.01.2024' does not match the date format %Y-%m-%d").waitFor();
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true);
    await screenshot(page, 'imports-row-errors');

    await page.getByLabel('Date format').fill('%d.%m.%Y');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved; rows re-checked.').waitFor();
    const publish = page.getByRole('button', { name: 'Publish' });
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.actions button')?.disabled);
    await page.getByRole('listitem').filter({ hasText: 'does not match' }).first().waitFor({ state: 'detached' }); // rows re-read
    expect(await page.getByRole('row', { name: /Payroll/ }).textContent()).toContain('2024-01-16');

    // From the keyboard: the button turns disabled under the user, focus goes to what says how publishing goes.
    await publish.press('Enter');
    await page.getByText(/Published: 3 rows are in your accounts/).waitFor({ timeout: 60_000 });
    expect(await focusedStatus(page)).toContain('Published: 3 rows are in your accounts');
    expect(await page.getByText('Complete', { exact: true }).count()).toBeGreaterThan(0);
    await screenshot(page, 'imports-complete');
    expect(await entries(user.familyId)).toEqual([
      { date: '2024-01-15', name: 'Grocer', amount: 4599, account: 'Checking' },
      { date: '2024-01-16', name: 'Payroll', amount: -250000, account: 'Checking' },
      { date: '2024-01-17', name: 'Cafe', amount: 1250, account: 'Savings' },
    ]);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revert' }).press('Enter');
    await page.waitForFunction(() => document.querySelector('h1 .badge')?.textContent === 'Pending', undefined, { timeout: 60_000 });
    // Pending again, and the page says why, where the focus is.
    await page.getByText(/^Reverted: /).waitFor();
    expect(await focusedStatus(page)).toMatch(/^Reverted: what this import created is removed/);
    expect(await entries(user.familyId)).toEqual([]);

    await page.getByRole('link', { name: '← All imports' }).click();
    await page.getByRole('table', { name: 'Imports' }).getByRole('link').first().waitFor();
    expect(await page.getByRole('table', { name: 'Imports' }).getByRole('row').count()).toBe(2); // header + 1
    await screenshot(page, 'imports-list');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await page.context().close();
  });

  it('clears a column the user empties in the configuration of an uploaded import', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/imports/new');
    await dropFile(page, 'memo.csv', ['Date,Amount,Description,Memo', '2024-01-15,-45.99,Grocer,weekly shop'].join('\n'));
    expect(await page.getByLabel('Notes column').inputValue()).toBe('Memo'); // guessed
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;

    await page.getByLabel('Notes column').fill('');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved; rows re-checked.').waitFor();
    const [stored] = await app.t.dataSource.query(`SELECT notes_col_label FROM imports WHERE id = $1`, [id]);
    expect(stored.notes_col_label).toBeNull();
    await page.reload();
    expect(await page.getByLabel('Notes column').inputValue()).toBe('');
    await page.context().close();
  });

  it('configures a CSV whose type column says money in or out, and the date format of a YNAB export', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/imports/new');
    const typed = ['Date,Amount,Description,Account,Kind', '2024-01-15,45.99,Grocer,Checking,debit', '2024-01-16,2500.00,Payroll,Checking,credit'];
    await dropFile(page, 'typed.csv', typed.join('\n'));
    expect(await page.getByLabel('Type column').count()).toBe(0); // signed amounts by default
    await page.getByLabel('Money in or out').selectOption('custom_column');
    await page.getByLabel('Type column').selectOption('Kind');
    await page.getByLabel('Type of money in').fill('credit');
    expect(await page.getByLabel('Amount signs').count()).toBe(0); // the type column alone says it
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('row', { name: /Payroll/ }).waitFor();
    // As the file means them: the type column's credit is money in (positive), its debit money out. The rows name
    // their account, so the currency is not known yet: plain decimals.
    expect(await page.getByRole('row', { name: /Payroll/ }).textContent()).toContain('2500.00');
    expect(await page.getByRole('row', { name: /Payroll/ }).textContent()).not.toContain('-2500.00');
    expect(await page.getByRole('row', { name: /Grocer/ }).textContent()).toContain('-45.99');
    const [stored] = await app.t.dataSource.query(`SELECT amount_type_strategy, amount_type_inflow_value, entity_type_col_label FROM imports WHERE id = $1`, [id]);
    expect(stored).toEqual({ amount_type_strategy: 'custom_column', amount_type_inflow_value: 'credit', entity_type_col_label: 'Kind' });
    expect(await page.getByLabel('Money in or out').inputValue()).toBe('custom_column');
    expect(await page.getByLabel('Type column').inputValue()).toBe('Kind');
    expect(await page.getByLabel('Type of money in').inputValue()).toBe('credit');

    // YNAB writes dates as its user set them: the date format is the one thing to configure.
    await page.goto(`${app.baseUrl}/imports/new`);
    await page.getByLabel('Import type').selectOption('YnabImport');
    const ynab = ['Account,Flag,Date,Payee,Category Group/Category,Category Group,Category,Memo,Outflow,Inflow,Cleared', 'Checking,,25/03/2024,Grocer,Food: Groceries,Food,Groceries,,12.50,0.00,Cleared'];
    await dropFile(page, 'ynab.csv', ynab.join('\n'));
    await page.getByLabel('Date format').waitFor();
    expect(await page.getByLabel('Amount column').count()).toBe(0);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByText("Row 1: date '25/03/2024' does not match the date format %m/%d/%Y").waitFor();
    await page.getByLabel('Date format').fill('%d/%m/%Y');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved; rows re-checked.').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'does not match' }).first().waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /Grocer/ }).textContent()).toContain('2024-03-25');
    await page.context().close();
  });
  it('skips an invalid row with its button, includes it again, and publishes the other rows once it is skipped', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/imports/new');
    const csv = ['Date,Amount,Description,Account', '2024-01-15,-45.99,Grocer,Checking', 'smudged,-1.00,Junk,Checking', '2024-01-17,-12.50,Cafe,Checking'];
    await dropFile(page, 'junk.csv', csv.join('\n'));
    await page.getByLabel('Name column').selectOption('Description');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByText("Row 2: date 'smudged' does not match the date format %Y-%m-%d").waitFor();
    const publish = page.getByRole('button', { name: 'Publish' });
    expect(await publish.isDisabled()).toBe(true);
    // Only the invalid row has the button.
    expect(await page.getByRole('button', { name: /^Skip row/ }).count()).toBe(1);

    // From the keyboard: the button goes with its row; focus goes to what happened, and the next Tab to the way back.
    await page.getByRole('button', { name: 'Skip row 2' }).press('Enter');
    await page.getByRole('heading', { name: 'Skipped rows' }).waitFor();
    await page.getByRole('row', { name: /Junk/ }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid=rows-count]')?.textContent === '2');
    expect(await publish.isDisabled()).toBe(false);
    expect(await focusedStatus(page)).toContain('Row 2 is skipped');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Include row 2 again');
    await screenshot(page, 'imports-skipped-row');

    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Junk/ }).waitFor();
    await page.getByRole('heading', { name: 'Skipped rows' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('rows-count').textContent()).toBe('3');
    expect(await publish.isDisabled()).toBe(true);
    expect(await focusedStatus(page)).toContain('Row 2 is included again');

    await page.getByRole('button', { name: 'Skip row 2' }).click();
    await page.getByRole('button', { name: 'Include row 2 again' }).waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.actions button')?.disabled);
    await publish.click();
    await page.getByText(/Published: 2 rows are in your accounts/).waitFor({ timeout: 60_000 });
    // Published: rows can no longer be skipped or included.
    expect(await page.getByRole('button', { name: 'Include row 2 again' }).count()).toBe(0);
    expect(await entries(user.familyId)).toEqual([
      { date: '2024-01-15', name: 'Grocer', amount: 4599, account: 'Checking' },
      { date: '2024-01-17', name: 'Cafe', amount: 1250, account: 'Checking' },
    ]);
    const [stored] = await app.t.dataSource.query(`SELECT skip_rows FROM imports WHERE id = $1`, [id]);
    expect(stored.skip_rows).toEqual([2]);
    await page.context().close();
  });

  it('offers the open accounts to import into, not a closed one', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const closed = await newAccount(app.t, h, 'Old savings');
    await app.t.dataSource.query(`UPDATE accounts SET closed_at = now() WHERE id = $1`, [closed]);
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    await dropFile(page, 'small.csv', 'Date,Amount,Description\n2024-01-15,-4.00,Cafe\n');
    const account = page.getByLabel('Account', { exact: true });
    await account.locator('option', { hasText: 'Checking' }).waitFor({ state: 'attached' });
    expect(await account.locator('option').allTextContents()).toEqual(['(named in the file)', 'Checking']);
    await page.context().close();
  });

  it('shows only the rows with errors, from the "With errors" figure or the switch, paging among them', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    // 60 rows, row 53 (on page 3 of 25) with a date no format reads.
    const lines = Array.from({ length: 60 }, (_, i) => `${i === 52 ? 'smudged' : `2024-01-${String((i % 28) + 1).padStart(2, '0')}`},-${i + 1}.00,Shop ${i + 1}`);
    await dropFile(page, 'long.csv', ['Date,Amount,Description', ...lines].join('\n'));
    await page.getByLabel('Name column').selectOption('Description');
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    // The rows of the import, not of the new-import form's preview, which may still be on screen as the address changes.
    await page.getByRole('table', { name: 'Import rows' }).getByRole('row', { name: /Shop 1\b/ }).waitFor();
    await page.getByText('Page 1 of 3').waitFor();
    const onlyErrors = page.getByLabel('Show only rows with errors');
    expect(await onlyErrors.isChecked()).toBe(false);

    // The figure is a link to the rows with errors: the bad row is the one row shown, with no pages to turn.
    await page.getByRole('link', { name: 'With errors: 1' }).click();
    await page.getByText("Row 53: date 'smudged' does not match the date format %Y-%m-%d").waitFor();
    await page.getByRole('row', { name: /Shop 1\b/ }).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rows-title'); // taken down to the rows
    expect(await page.getByRole('table', { name: 'Import rows' }).getByRole('row').count()).toBe(2); // header + 1
    expect(await onlyErrors.isChecked()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Row pages' }).count()).toBe(0);
    await screenshot(page, 'imports-rows-with-errors');

    // Every row again, from page 1; on page 3 the switch shows the rows with errors from their own page 1. A click, not
    // check(): the switch follows the address, which changes a moment after the click, and check() looks at once.
    await onlyErrors.click();
    await page.getByRole('row', { name: /Shop 1\b/ }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 3 of 3').waitFor();
    await onlyErrors.click();
    await page.getByRole('navigation', { name: 'Row pages' }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Shop 53/ }).waitFor();
    expect(await page.getByRole('table', { name: 'Import rows' }).getByRole('row').count()).toBe(2);

    // Skipping it leaves no row with errors to show.
    await page.getByRole('button', { name: 'Skip row 53' }).click();
    await page.getByText('No rows with errors.').waitFor();
    await page.getByRole('link', { name: 'With errors: 0' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('invalid-count').textContent()).toBe('0');
    await page.context().close();
  });

  it('puts a bank CSV without an account column, and a QIF file, into an account the user picks, and publishes them', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Savings');
    const checking = await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');

    // A single-account bank export names no account: the rows go into the one picked at upload.
    await dropFile(page, 'bank.csv', ['Date,Amount,Description', '2024-01-15,-45.99,Grocer'].join('\n'));
    const account = page.getByLabel('Account', { exact: true });
    expect(await account.inputValue()).toBe(''); // the file's account column, until one is picked
    await account.selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Grocer/ }).waitFor();
    expect(await page.getByLabel('Account', { exact: true }).inputValue()).toBe(checking);
    const publish = page.getByRole('button', { name: 'Publish' });
    expect(await publish.isDisabled()).toBe(false);
    await publish.click();
    await page.getByText(/Published: 1 rows are in your accounts/).waitFor({ timeout: 60_000 });

    // The same export again: its row matches the transaction already there, and says so, instead of adding another.
    await page.goto(`${app.baseUrl}/imports/new`);
    await dropFile(page, 'bank.csv', ['Date,Amount,Description', '2024-01-15,-45.99,Grocer'].join('\n'));
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Grocer/ }).getByText('OK', { exact: true }).waitFor();
    await publish.click();
    await page.getByRole('row', { name: /Grocer/ }).getByText('OK, matched an existing record').waitFor({ timeout: 60_000 });

    // A QIF file has fixed columns and names no account: the page says to pick one, and saving it makes it publishable.
    await page.goto(`${app.baseUrl}/imports/new`);
    await page.getByLabel('Import type').selectOption('QifImport');
    await dropFile(page, 'checking.qif', ['!Type:Bank', 'D01/16/2024', 'T-12.50', 'PCafe', '^'].join('\n'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Cafe/ }).waitFor();
    await page.getByText('Choose the account to import into: this file names no account.').waitFor();
    expect(await publish.isDisabled()).toBe(true);
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved; rows re-checked.').waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.actions button')?.disabled);
    await screenshot(page, 'imports-qif-account');
    await publish.click();
    await page.getByText(/Published: 1 rows are in your accounts/).waitFor({ timeout: 60_000 });
    expect(await entries(h.familyId)).toEqual([
      { date: '2024-01-15', name: 'Grocer', amount: 4599, account: 'Checking' },
      { date: '2024-01-16', name: 'Cafe', amount: 1250, account: 'Checking' },
    ]);
    await page.context().close();
  });

  it('asks for and previews the file of the type chosen: a CSV in columns, QIF and NDJSON as their first lines, a PDF by its name and size', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    const dropzone = page.getByTestId('dropzone');
    const picker = dropzone.locator('input[type=file]');
    expect(await dropzone.textContent()).toContain('Drop a CSV file here');
    expect(await picker.getAttribute('accept')).toBe('.csv,.txt,.tsv,.xlsx,.xlsm,.xls,text/csv');

    await page.getByLabel('Import type').selectOption('QifImport');
    expect(await dropzone.textContent()).toContain('Drop a QIF file here');
    expect(await picker.getAttribute('accept')).toBe('.qif');
    const qif = ['!Type:Bank', 'D01/16/2024', 'T-12.50', 'PCafe', '^'];
    await dropFile(page, 'checking.qif', qif.join('\n'), 'application/qif');
    await page.getByText('Selected: checking.qif').waitFor();
    // Its first lines as they are, not a one-column table headed "!Type:Bank" with column pickers.
    const lines = page.getByRole('region', { name: 'First lines' });
    expect(await lines.locator('pre').textContent()).toBe(qif.join('\n'));
    expect(await page.getByRole('heading', { name: 'Columns' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByLabel('Date column').count()).toBe(0);
    await screenshot(page, 'imports-new-qif');

    // The same file read again as the type now chosen: a CSV file shows columns to map.
    await page.getByLabel('Import type').selectOption('TransactionImport');
    await page.getByRole('heading', { name: 'Columns' }).waitFor();
    expect(await page.getByRole('region', { name: 'First lines' }).count()).toBe(0);

    await page.getByLabel('Import type').selectOption('ServiceImport');
    expect(await dropzone.textContent()).toContain('Drop an NDJSON file here');
    expect(await picker.getAttribute('accept')).toBe('.ndjson,.json');
    const ndjson = ['{"type":"Account","data":{"id":"a1","name":"Checking","balance":"0","currency":"USD","accountable_type":"Depository"}}'];
    await dropFile(page, 'export.ndjson', ndjson.join('\n'), 'application/x-ndjson');
    await lines.getByText('"accountable_type":"Depository"', { exact: false }).waitFor(); // read in the background
    expect(await lines.locator('pre').textContent()).toBe(ndjson[0]);
    expect(await page.getByRole('heading', { name: 'Columns' }).count()).toBe(0);

    // A PDF statement is not text: its name and size, then its rows once uploaded.
    await page.getByLabel('Import type').selectOption('PdfImport');
    expect(await dropzone.textContent()).toContain('Drop a PDF statement here');
    expect(await picker.getAttribute('accept')).toBe('.pdf,application/pdf');
    expect(await page.getByRole('radio', { name: 'Paste text' }).count()).toBe(0); // nothing to paste
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [['15/01/2024', 'Grocer', '45,99', '', '954,01']],
    });
    await dropFile(page, 'statement.pdf', pdf, 'application/pdf');
    await page.getByText(`Selected: statement.pdf (${Math.ceil(pdf.length / 1024)} KB)`).waitFor();
    expect(await page.getByRole('region', { name: 'First lines' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Columns' }).count()).toBe(0);
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /PDF statement import/ }).waitFor();
    await page.getByRole('row', { name: /Grocer/ }).waitFor();
    await page.context().close();
  });

  /** Uploads `csv` as a file named `name` with the form's guesses, into `account` when given; returns the import's id. */
  async function uploadCsv(page: Page, name: string, csv: string, { account, type }: { account?: string; type?: string } = {}): Promise<string> {
    await page.goto(`${app.baseUrl}/imports/new`);
    if (type) await page.getByLabel('Import type').selectOption(type);
    await dropFile(page, name, csv);
    await page.getByText(`Selected: ${name}`).waitFor();
    if (account) await page.getByLabel('Account', { exact: true }).selectOption({ label: account });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    return page.url().split('/').pop()!;
  }

  /** The page at phone width, then back at the desktop width. */
  async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
    await screenshot(page, name);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('says next to Publish what keeps an import from publishing: 51 accounts where 50 may be imported at once', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email);
    const accounts = ['name,balance,currency', ...Array.from({ length: 51 }, (_, i) => `Account ${i + 1},${i + 1}00.00,USD`)].join('\n');
    await uploadCsv(page, 'accounts.csv', accounts, { type: 'AccountImport' });
    await page.getByRole('row', { name: /Account 1\b/ }).waitFor();
    // Every row is valid: the reason is the limit, said where the disabled button is.
    expect(await page.getByTestId('invalid-count').textContent()).toBe('0');
    const publish = page.getByRole('button', { name: 'Publish' });
    expect(await publish.isDisabled()).toBe(true);
    const reason = page.getByTestId('not-publishable-reason');
    expect(await reason.textContent()).toBe(
      'The import has 51 rows; at most 50 can be published at once (accounts are imported 50 at a time). Split the file into parts of at most 50 rows and import each.',
    );
    expect(await publish.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
    expect(await page.getByText(/rows with errors/).count()).toBe(0);
    await screenshotsAtBothWidths(page, 'imports-not-publishable-reason');
    await page.context().close();
  });

  it('lists each import by its file (or pasted text), account, dates and rows', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Everyday');
    const page = await app.newPage();
    await signInAs(page, h.email);
    await uploadCsv(page, 'march-statement.csv', ['Date,Amount,Description', '2024-03-05,-1.00,A', '2024-01-31,-2.00,B', '2024-02-10,-3.00,C'].join('\n'), { account: 'Everyday' });
    await page.goto(`${app.baseUrl}/imports/new`);
    await page.getByRole('radio', { name: 'Paste text' }).check();
    await page.getByLabel('Text to import').fill(['Date,Amount,Description,Account', '2024-06-01,-1.00,A,Savings'].join('\n'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    // The import's own page says it too.
    const facts = page.locator('.facts');
    await facts.getByText('Pasted text').waitFor();
    expect(await facts.textContent()).toContain('Named in the file');

    await page.goto(`${app.baseUrl}/imports`);
    const table = page.getByRole('table', { name: 'Imports' });
    await table.getByRole('link', { name: 'march-statement.csv' }).waitFor();
    const cells = async (name: RegExp) => (await table.getByRole('row', { name }).locator('th, td').allTextContents()).slice(0, 6);
    expect(await cells(/march-statement\.csv/)).toEqual(['march-statement.csv', 'Transaction', 'Everyday', 'Jan 31, 2024 – Mar 5, 2024', '3', '0']);
    expect(await cells(/Pasted text/)).toEqual(['Pasted text', 'Transaction', 'Named in the file', 'Jun 1, 2024', '1', '0']);
    await screenshotsAtBothWidths(page, 'imports-list-columns');
    await page.context().close();
  });

  it('links a published import to the transactions it made, named on a chip the user can clear', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    const account = await newAccount(app.t, h, 'Everyday');
    const page = await app.newPage();
    await signInAs(page, h.email);
    const id = await uploadCsv(page, 'april.csv', ['Date,Amount,Description', '2024-04-02,-4.00,Bakery', '2024-04-03,-6.00,Butcher'].join('\n'), { account: 'Everyday' });
    await request(app.t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(app.t.server, h.apiKey, id)).status).toBe('complete');
    // Another import, not yet published: nothing to view.
    await uploadCsv(page, 'may.csv', ['Date,Amount,Description', '2024-05-02,-1.00,Kiosk'].join('\n'), { account: 'Everyday' });
    const byHand = { transaction: { account_id: account, date: '2024-04-04', amount: '1.00', name: 'By hand' } };
    await request(app.t.server).post('/api/v1/transactions').set('X-Api-Key', h.apiKey).send(byHand).expect(201);

    await page.goto(`${app.baseUrl}/imports`);
    const table = page.getByRole('table', { name: 'Imports' });
    expect(await table.getByRole('row', { name: /may\.csv/ }).getByRole('link', { name: /View the transactions/ }).count()).toBe(0);
    await screenshotsAtBothWidths(page, 'imports-list-view-transactions');
    await table.getByRole('link', { name: 'View the transactions of april.csv' }).click();
    await page.waitForURL(new RegExp(`/transactions\\?import_id=${id}$`));
    const chip = page.getByRole('button', { name: 'Remove the filter: from import april.csv' });
    await chip.waitFor();
    const rows = page.getByRole('table', { name: 'Transactions, newest first' }).locator('tbody tr');
    await rows.filter({ hasText: 'Bakery' }).waitFor();
    expect(await rows.filter({ hasText: /Bakery|Butcher|By hand/ }).count()).toBe(2);
    await screenshotsAtBothWidths(page, 'transactions-from-import');
    await chip.click();
    await page.waitForURL(/\/transactions$/);
    await rows.filter({ hasText: 'By hand' }).waitFor();
    expect(await chip.count()).toBe(0);
    await page.context().close();
  });

  it('discards an unpublished import after a confirmation, recorded in the audit log, and offers no discard once published', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email);
    const id = await uploadCsv(page, 'mistake.csv', ['Date,Amount,Description', '2024-01-15,-45.99,Grocer'].join('\n'), { account: 'Checking' });
    await page.getByRole('row', { name: /Grocer/ }).waitFor();
    await screenshot(page, 'imports-discard');

    // Cancelled: nothing happens.
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await app.t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE id = $1`, [id])).toEqual([{ n: 1 }]);
    expect(dialogs).toEqual(['Discard this import (mistake.csv, 1 rows)? Its rows are deleted; nothing of it is published.']);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL(/\/imports$/);
    await page.getByText('Import discarded: mistake.csv.').waitFor();
    await page.getByText('No imports yet.').waitFor();
    expect(await app.t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE id = $1`, [id])).toEqual([{ n: 0 }]);
    expect(await app.t.dataSource.query(`SELECT event, user_id FROM audit_logs WHERE details->>'import_id' = $1`, [id])).toEqual([{ event: 'import_discarded', user_id: h.userId }]);
    await screenshot(page, 'imports-discarded');

    // Published: revert first, so no Discard button.
    await uploadCsv(page, 'kept.csv', ['Date,Amount,Description', '2024-01-16,-5.00,Cafe'].join('\n'), { account: 'Checking' });
    await page.getByRole('button', { name: 'Discard' }).waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.actions button')?.disabled);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText(/Published: 1 rows are in your accounts/).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: 'Discard' }).count()).toBe(0);
    await page.context().close();
  });

  it('sends one publish for a double click, and shows it published without an error', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email);
    const rows = Array.from({ length: 400 }, (_, i) => `2024-01-${String((i % 28) + 1).padStart(2, '0')},-${i + 1}.00,Shop ${i + 1}`);
    await uploadCsv(page, 'double.csv', ['Date,Amount,Description', ...rows].join('\n'), { account: 'Checking' });
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.actions button')?.disabled);
    const publishes: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/publish') && publishes.push(r.url()));
    await page.getByRole('button', { name: 'Publish' }).dblclick();
    await page.getByText(/Published: 400 rows are in your accounts/).waitFor({ timeout: 60_000 });
    expect(publishes).toHaveLength(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'imports-double-click-published');
    expect(await app.t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE family_id = $1`, [h.familyId])).toEqual([{ n: 400 }]);

    // A publish another tab started: said as what the import is doing, not as a failure.
    const other = await uploadCsv(page, 'other-tab.csv', ['Date,Amount,Description', '2024-02-01,-1.00,Tab'].join('\n'), { account: 'Checking' });
    // The page read afresh: it shows the import pending and reads it no more; then the other tab's publish starts.
    await page.reload();
    await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('.actions button')?.disabled === false);
    await app.t.dataSource.query(`UPDATE imports SET status = 'importing' WHERE id = $1`, [other]);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('This import is already publishing: wait for it to finish.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('progressbar', { name: 'Publishing' }).waitFor(); // read again: its progress shows
    await page.context().close();
  });

  it('asks which date format a file uses when its dates fit two, showing a date read each way, creates the import with the answer, and asks again when the format is emptied', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    const csv = ['Date,Amount,Description', '01/02/2026,-4.50,Bakery', '03/04/2026,-12.00,Cafe'].join('\n');
    await dropFile(page, 'ambiguous.csv', csv);
    await page.getByText('Selected: ambiguous.csv').waitFor();
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    expect(await page.getByLabel('Date format').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();

    // Nothing is stored until the user says which: the question takes focus, no choice is made for them.
    const question = page.getByRole('region', { name: 'Which date format does the file use?' });
    await question.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Which date format does the file use?');
    const dayFirst = question.getByRole('radio', { name: /dd\/mm\/yyyy/ });
    const monthFirst = question.getByRole('radio', { name: /mm\/dd\/yyyy/ });
    expect(await question.getByText('01/02/2026 → 1 February 2026').count()).toBe(1);
    expect(await question.getByText('01/02/2026 → 2 January 2026').count()).toBe(1);
    expect([await dayFirst.isChecked(), await monthFirst.isChecked()]).toEqual([false, false]);
    expect(await question.getByRole('button', { name: 'Upload with this date format' }).isDisabled()).toBe(true);
    expect(await app.t.dataSource.query(`SELECT id FROM imports WHERE family_id = $1`, [h.familyId])).toEqual([]);
    await screenshotsAtBothWidths(page, 'imports-date-question');

    await dayFirst.check();
    await question.getByRole('button', { name: 'Upload with this date format' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Cafe/ }).waitFor();
    expect(await page.getByRole('row', { name: /Bakery/ }).textContent()).toContain('2026-02-01');
    expect(await page.getByRole('row', { name: /Cafe/ }).textContent()).toContain('2026-04-03');
    expect(await page.getByLabel('Date format').inputValue()).toBe('%d/%m/%Y');

    // Emptied, the format is told from the dates again: the same question, answered, reads the rows the other way.
    await page.getByLabel('Date format').fill('');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const again = page.getByRole('region', { name: 'Which date format does the file use?' });
    await again.getByText('the import stays as it was until you do', { exact: false }).waitFor();
    await again.getByRole('radio', { name: /mm\/dd\/yyyy/ }).check();
    await again.getByRole('button', { name: 'Save with this date format' }).click();
    await page.getByText('Configuration saved; rows re-checked.').waitFor();
    await page.getByRole('row', { name: /Bakery/ }).filter({ hasText: '2026-01-02' }).waitFor();
    expect(await page.getByLabel('Date format').inputValue()).toBe('%m/%d/%Y');
    await page.context().close();
  });

  it('preselects the date format told from the dates on the import page', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email);
    await uploadCsv(page, 'day-first.csv', ['Date,Amount,Description', '31/10/2026,-4.50,Bakery'].join('\n'), { account: 'Checking' });
    await page.getByRole('row', { name: /Bakery/ }).waitFor();
    expect(await page.getByRole('row', { name: /Bakery/ }).textContent()).toContain('2026-10-31');
    expect(await page.getByLabel('Date format').inputValue()).toBe('%d/%m/%Y');
    await page.getByText("%d/%m/%Y reads dates as dd/mm/yyyy; left empty, it is told from the file's dates").waitFor();
    await screenshotsAtBothWidths(page, 'imports-date-detected');
    await page.context().close();
  });

  it('shows each amount signed as the file has it, in the account currency, and a date that did not read as written', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email);
    const csv = ['Date,Amount,Description', '2024-01-15,-45.99,Grocer', '2024-01-31,3200.00,Salary', '31/01/2024,-12.50,Cafe'];
    await uploadCsv(page, 'signed.csv', csv.join('\n'), { account: 'Checking' });
    const rows = page.getByRole('table', { name: 'Import rows' });
    await rows.getByRole('row', { name: /Salary/ }).waitFor();
    // The date and amount cells of a row, found by their column headers.
    const headers = await rows.getByRole('columnheader').allTextContents();
    const cellsOf = async (name: RegExp) => {
      const cells = await rows.getByRole('row', { name }).locator('th, td').allTextContents();
      return [cells[headers.indexOf('date')], cells[headers.indexOf('amount')]];
    };
    expect(await cellsOf(/Grocer/)).toEqual(['2024-01-15', '-$45.99']);
    expect(await cellsOf(/Salary/)).toEqual(['2024-01-31', '$3,200.00']);
    // The date cell as the file wrote it, next to the error saying why it is no date.
    expect(await cellsOf(/Cafe/)).toEqual(['31/01/2024 (not read as a date)', '-$12.50']);
    await rows.getByText("Row 3: date '31/01/2024' does not match the date format %Y-%m-%d").waitFor();
    await page.getByText('Amounts as the file signs them: money in is positive, money out negative.').waitFor();
    await screenshotsAtBothWidths(page, 'imports-signed-amounts');
    await page.context().close();
  });

  it('refuses a picture at once when chosen for a CSV type, saying why, with no preview', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0]);
    await dropFile(page, 'receipt.png', png, 'image/png');
    const dropzone = page.getByTestId('dropzone');
    await dropzone.getByRole('alert').getByText('"receipt.png" is a PNG image, not a CSV file.').waitFor();
    expect(await page.getByRole('heading', { name: 'Columns' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    await screenshotsAtBothWidths(page, 'imports-png-refused');

    // A workbook cut short is named as such, with what to do.
    const cut = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from('[Content_Types].xml')]);
    await dropFile(page, 'statement.xlsx', cut, XLSX_TYPE);
    await dropzone.getByRole('alert').getByText('"statement.xlsx" is incomplete or damaged (cut short in the upload or download?): save or download it again.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);

    // A CSV file then is taken, previewed as ever.
    await dropFile(page, 'bank.csv', CSV);
    await page.getByText('Selected: bank.csv').waitFor();
    await page.getByRole('table', { name: /Preview of the first 3 rows/ }).waitFor();
    expect(await dropzone.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(false);
    await page.context().close();
  });

  it("previews an Excel workbook's sheet in columns, another sheet when picked, and imports the sheet picked", async () => {
    const h = await app.t.newHousehold({ role: 'member', currency: 'EUR' });
    await newAccount(app.t, h, 'Card', 'EUR');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Card' });
    await dropFile(page, 'statement.xlsx', readFileSync(join(XLSX_FIXTURES, 'bank-statement.xlsx')), XLSX_TYPE);
    const sheet = page.getByLabel('Sheet');
    // The first sheet that is not hidden, as the API reads it; every sheet can be picked.
    expect(await sheet.inputValue()).toBe('Statement');
    expect(await sheet.locator('option').allTextContents()).toEqual(['Lookups', 'Statement', 'Card']);
    await sheet.selectOption('Card');
    const preview = page.getByRole('table', { name: /Preview of the first/ });
    await preview.getByRole('columnheader', { name: 'Merchant' }).waitFor();
    await preview.getByRole('cell', { name: 'Book shop' }).waitFor();
    await page.getByLabel('Date column').selectOption('Booked');
    await page.getByLabel('Name column').selectOption('Merchant');
    await page.getByLabel('Date format').fill('%Y-%m-%d %H:%M:%S');
    await screenshotsAtBothWidths(page, 'imports-xlsx-sheet');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Book shop/ }).waitFor();
    await page.getByRole('row', { name: /Train/ }).waitFor();
    const [stored] = await app.t.dataSource.query(`SELECT file_name, raw_file_content FROM imports WHERE family_id = $1`, [h.familyId]);
    expect(stored.file_name).toBe('statement.xlsx');
    expect(stored.raw_file_content).toContain('Book shop');
    await page.context().close();
  });

  it('imports pasted CSV or QIF text, sent as raw_file_content, with the same preview as a file', async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    const checking = await newAccount(app.t, h, 'Checking');
    const page = await app.newPage();
    await signInAs(page, h.email, '/imports/new');
    await page.getByRole('radio', { name: 'Paste text' }).check();
    expect(await page.getByTestId('dropzone').count()).toBe(0);
    const csv = ['Date,Amount,Description', '2024-01-15,-45.99,Grocer', '2024-01-16,2500.00,Payroll'].join('\n');
    await page.getByLabel('Text to import').fill(csv);
    const preview = page.getByRole('table', { name: /Preview of the first 2 rows/ });
    await preview.getByRole('cell', { name: 'Payroll' }).waitFor();
    expect(await page.getByLabel('Date column').inputValue()).toBe('Date'); // guessed as for a file
    await page.getByLabel('Name column').selectOption('Description');
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await screenshot(page, 'imports-new-pasted');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1/imports'));
    await page.getByRole('button', { name: 'Upload' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ type: 'TransactionImport', raw_file_content: csv, name_col_label: 'Description', account_id: checking });
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('row', { name: /Payroll/ }).waitFor();
    expect(await page.getByTestId('rows-count').textContent()).toBe('2');

    // QIF text: its first lines, no columns; switching back to a file keeps the choice of type.
    await page.goto(`${app.baseUrl}/imports/new`);
    await page.getByLabel('Import type').selectOption('QifImport');
    await page.getByRole('radio', { name: 'Paste text' }).check();
    const qif = ['!Type:Bank', 'D01/17/2024', 'T-12.50', 'PCafe', '^'].join('\n');
    await page.getByLabel('Text to import').fill(qif);
    expect(await page.getByRole('region', { name: 'First lines' }).locator('pre').textContent()).toBe(qif);
    expect(await page.getByRole('heading', { name: 'Columns' }).count()).toBe(0);
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Checking' });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /QIF import/ }).waitFor();
    await page.getByRole('row', { name: /Cafe/ }).waitFor();
    await page.context().close();
  });

  it("shows a statement's closing balance the account disagrees with as a warning on the published import", async () => {
    const h = await app.t.newHousehold({ role: 'member' });
    const accountId = await newAccount(app.t, h, 'Girokonto', 'EUR');
    // Opened at 1,000.00 where the statement says 1,234.56: the closing balance comes out 234.56 apart.
    await app.t.dataSource.query(
      `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, 'Valuation', '2024-01-01', 'Opening balance', 100000, 'EUR') RETURNING id)
       INSERT INTO valuations (entry_id, kind) SELECT id, 'opening_anchor' FROM e`,
      [h.familyId, accountId],
    );
    const statement = readFileSync(join(__dirname, '../../../libs/domain/import-formats/fixtures/mt940/sparkasse.sta'), 'utf8');
    const created = await createImport(app.t.server, h.apiKey, { type: 'Mt940Import', raw_file_content: statement, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(app.t.server, h.apiKey, created.body.data.id)).status).toBe('complete');

    const page = await app.newPage();
    await signInAs(page, h.email, `/imports/${created.body.data.id}`);
    const warnings = page.getByTestId('import-warnings');
    await warnings.waitFor();
    expect(await warnings.getByRole('listitem').allTextContents()).toEqual([
      "The bank states a balance of 3,111.11 EUR on 2024-03-08; the account's balance that day is 2,876.55 EUR (234.56 EUR apart)",
    ]);
    // Said with the outcome, in the status region.
    expect(await warnings.evaluate((el) => el.closest('[role="status"]') !== null)).toBe(true);
    await screenshotsAtBothWidths(page, 'imports-balance-warning');
    await page.context().close();
  });
});
