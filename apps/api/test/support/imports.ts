import request from 'supertest';
import type { Server } from 'node:http';
import type { Household, TestApp } from './test-app';

/** Polls an import until it leaves importing/reverting; returns its final detail. */
export async function waitForImport(server: Server, apiKey: string, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(server).get(`/api/v1/imports/${id}`).set('X-Api-Key', apiKey).expect(200);
    if (!['importing', 'reverting'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${res.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const createImport = (server: Server, apiKey: string, body: Record<string, unknown>) =>
  request(server).post('/api/v1/imports').set('X-Api-Key', apiKey).send(body);

/** A Depository account of the household; returns its id. */
export async function newAccount(t: TestApp, h: Household, name = 'Checking', currency = 'USD'): Promise<string> {
  const [row] = await t.dataSource.query(
    `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, $2, 'Depository', 'asset', $3) RETURNING id`,
    [h.familyId, name, currency],
  );
  return row.id;
}

/** Creates an import with publish (201, importing) and waits until publishing ends; returns its final detail. */
export async function publishAndWait(t: TestApp, h: Household, body: Record<string, unknown>) {
  const res = await createImport(t.server, h.apiKey, { ...body, publish: 'true' });
  expect({ status: res.status, importStatus: res.body.data?.status }).toEqual({ status: 201, importStatus: 'importing' });
  return waitForImport(t.server, h.apiKey, res.body.data.id);
}

/** Reverts an import (202) and waits until reverting ends; returns its final detail. */
export async function revertAndWait(t: TestApp, h: Household, id: string) {
  await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
  return waitForImport(t.server, h.apiKey, id);
}

/** Gives the account an opening balance (its opening_anchor valuation), as an AccountImport or the app would. */
export async function addOpeningBalance(t: TestApp, h: Household, accountId: string, date: string, amountMinor: number): Promise<void> {
  await t.dataSource.query(
    `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, 'Valuation', $3, 'Opening balance', $4, 'USD') RETURNING id)
     INSERT INTO valuations (entry_id, kind) SELECT id, 'opening_anchor' FROM e`,
    [h.familyId, accountId, date, amountMinor],
  );
}

/** The account's opening balances (date, amount in minor units). */
export const openingBalances = (t: TestApp, accountId: string): Promise<Array<{ date: string; amount: number }>> =>
  t.dataSource.query(`SELECT e.date::text AS date, e.amount_minor::int AS amount FROM entries e JOIN valuations v ON v.entry_id = e.id WHERE e.account_id = $1`, [accountId]);

/** A bank QIF without an Opening Balance record: one record per date, each a purchase of `amount`, named Shop 0, Shop 1, ... */
export const bankQifWithout = (dates: string[], amount = '-1.00') =>
  ['!Type:Bank', ...dates.flatMap((d, i) => [`D${d}`, `T${amount}`, `PShop ${i}`, '^'])].join('\n');

/**
 * A budget of the household from `startDate` (201): its actual spending, and that of a category named so, in cents,
 * as the budget endpoints report them.
 */
export async function budgetSpending(t: TestApp, h: Household, startDate: string, categories: string[]): Promise<{ total: number; byCategory: number[] }> {
  const api = (path: string) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', h.apiKey).expect(200);
  const budget = await request(t.server).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: startDate }).expect(201);
  const budgetId = budget.body.id ?? budget.body.data?.id;
  const byCategory: number[] = [];
  for (const name of categories) {
    const [{ id }] = await t.dataSource.query(`SELECT id FROM categories WHERE family_id = $1 AND name = $2`, [h.familyId, name]);
    const list = await api(`/budget_categories?budget_id=${budgetId}&category_id=${id}`);
    byCategory.push((await api(`/budget_categories/${list.body.budget_categories[0].id}`)).body.actual_spending_cents);
  }
  return { total: (await api(`/budgets/${budgetId}`)).body.actual_spending_cents, byCategory };
}
