import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/**
 * A trade to record: qty and price as decimals, `amount` the cash the file states (else qty x price, signed by
 * `sign`), `fee` in the trade's currency, both scaled to minor units by `scale`.
 */
export interface NewTrade {
  entryId: string;
  accountId: string;
  date: string;
  name: string;
  ticker: string;
  mic: string;
  qty: string;
  price: string;
  amount: string | null;
  fee: string | null;
  sign: number;
  scale: string;
  currency: string;
  label: string | null;
}

/** A row probing for the trades it duplicates, by its source row number. */
export type TradeProbe = Pick<NewTrade, 'accountId' | 'date' | 'ticker' | 'mic' | 'qty' | 'price' | 'amount' | 'sign' | 'scale' | 'currency'> & { rowNumber: number };

/** A trade's entry amount in minor units, from a row of `t`: the cash the file states, else qty x price, signed. */
const amountMinor = (t: string) => `round(COALESCE(${t}.amount, ${t}.qty * ${t}.price * ${t}.sign) * ${t}.scale)::bigint`;

/** The statements of the ledger on trades, their entries and the securities they name. */
@Injectable()
export class TradesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records trades: securities are found by (ticker, exchange MIC) or created offline in one statement (no
   * market-data provider here), then entries and trades go in with one statement each.
   */
  async insertMany(familyId: string, importId: string, rows: NewTrade[], tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `INSERT INTO securities (ticker, exchange_operating_mic, offline) SELECT DISTINCT t, m, true FROM unnest($1::varchar[], $2::varchar[]) AS x(t, m)
     ON CONFLICT (ticker, exchange_operating_mic) DO NOTHING`,
      [rows.map((r) => r.ticker), rows.map((r) => r.mic)],
    );
    await manager.query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, account_id, 'Trade', date, name, ${amountMinor('t')}, currency, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::char(3)[], $12::numeric[])
         AS t(id, account_id, date, name, qty, price, scale, sign, currency, amount)`,
      [familyId, importId, rows.map((r) => r.entryId), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.name),
        rows.map((r) => r.qty), rows.map((r) => r.price), rows.map((r) => r.scale), rows.map((r) => r.sign), rows.map((r) => r.currency),
        rows.map((r) => r.amount)],
    );
    await manager.query(
      `INSERT INTO trades (entry_id, security_id, qty, price, fee_minor, currency, investment_activity_label)
     SELECT t.id, s.id, t.qty, t.price, round(COALESCE(t.fee, 0) * t.scale)::bigint, t.currency, t.label
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::numeric[], $5::numeric[], $6::char(3)[], $7::varchar[], $8::numeric[], $9::numeric[])
         AS t(id, ticker, mic, qty, price, currency, label, fee, scale)
       JOIN securities s ON s.ticker = t.ticker AND s.exchange_operating_mic = t.mic`,
      [rows.map((r) => r.entryId), rows.map((r) => r.ticker), rows.map((r) => r.mic), rows.map((r) => r.qty), rows.map((r) => r.price),
        rows.map((r) => r.currency), rows.map((r) => r.label), rows.map((r) => r.fee), rows.map((r) => r.scale)],
    );
  }

  /**
   * For each row, the existing trades it duplicates (same account, date, security, qty, price, cash amount and
   * currency; not created by import `importId`), oldest first, rows in order. The join with trades alone says an
   * entry is a trade: naming entryable_type too let the planner probe by the partial index of an account's trades
   * (account balances'), reading every trade of the account for each row (time growing with the square of the
   * re-imported trades), instead of by (account, date, amount).
   */
  duplicateCandidates(familyId: string, importId: string, rows: TradeProbe[], tx?: Transaction): Promise<Array<{ rowNumber: number; entryId: string }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT g.rn AS "rowNumber", x.id AS "entryId"
       FROM unnest($3::int[], $4::uuid[], $5::date[], $6::varchar[], $7::varchar[], $8::numeric[], $9::numeric[], $10::numeric[], $11::int[], $12::numeric[], $13::char(3)[])
         AS g(rn, account_id, date, ticker, mic, qty, price, amount, sign, scale, currency)
       JOIN accounts a ON a.id = g.account_id AND a.family_id = $1
      CROSS JOIN LATERAL (
        SELECT e.id, row_number() OVER (ORDER BY e.created_at, e.id) AS age
          FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
         WHERE e.account_id = g.account_id AND e.date = g.date AND e.import_id IS DISTINCT FROM $2
           AND e.amount_minor = ${amountMinor('g')} AND e.currency = g.currency
           AND t.qty = g.qty AND t.price = g.price AND s.ticker = g.ticker AND s.exchange_operating_mic = g.mic
        OFFSET 0) x
      ORDER BY g.rn, x.age`,
      [familyId, importId, rows.map((r) => r.rowNumber), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.ticker),
        rows.map((r) => r.mic), rows.map((r) => r.qty), rows.map((r) => r.price), rows.map((r) => r.amount), rows.map((r) => r.sign),
        rows.map((r) => r.scale), rows.map((r) => r.currency)],
    );
  }

  /**
   * The stock splits recorded already in the account (a trade of that name, day and security of no exchange, with
   * no cash and price 0; not created by import `importId`), oldest first, as candidates of row `rowNumber`.
   */
  recordedSplits(
    split: { rowNumber: number; accountId: string | null; date: unknown; name: unknown; ticker: unknown },
    importId: string,
    tx?: Transaction,
  ): Promise<Array<{ rowNumber: number; entryId: string }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT $1::int AS "rowNumber", e.id AS "entryId"
         FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
        WHERE e.account_id = $2 AND e.date = $3 AND e.name = $4 AND e.entryable_type = 'Trade' AND e.amount_minor = 0 AND t.price = 0
          AND s.ticker = $5 AND s.exchange_operating_mic = '' AND e.import_id IS DISTINCT FROM $6
        ORDER BY e.created_at, e.id`,
      [split.rowNumber, split.accountId, split.date, split.name, split.ticker, importId],
    );
  }

  /**
   * The shares (as text) a split of `ratio` for 1 adds to the account's holding of the security (of no exchange) on
   * `date`: the qty of its trades dated on or before it, times ratio - 1, to 8 places.
   */
  async sharesAddedBySplit(accountId: string | null, date: unknown, ticker: unknown, ratio: unknown, tx?: Transaction): Promise<string> {
    const [{ added }] = await managerOf(tx, this.dataSource).query(
      `SELECT round(COALESCE(sum(t.qty), 0) * ($4::numeric - 1), 8)::text AS added
         FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
        WHERE e.account_id = $1 AND e.date <= $2 AND e.entryable_type = 'Trade' AND s.ticker = $3 AND s.exchange_operating_mic = ''`,
      [accountId, date, ticker, ratio],
    );
    return added;
  }

  /** Creates the securities of the given (ticker, MIC) offline, named, unless they exist. */
  async insertNamedSecurities(rows: Array<{ ticker: string; mic: string; securityName: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO securities (ticker, exchange_operating_mic, name, offline) SELECT DISTINCT ON (t, m) t, m, n, true FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS x(t, m, n)
     ON CONFLICT (ticker, exchange_operating_mic) DO NOTHING`,
      [rows.map((t) => t.ticker), rows.map((t) => t.mic), rows.map((t) => t.securityName)],
    );
  }

  /** Makes entries trades of the securities of the given (ticker, MIC), with the fee in minor units. */
  async insertTradeDetails(
    rows: Array<{ id: string; ticker: string; mic: string; qty: string; price: string; fee: string; currency: string; label: string | null }>,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO trades (entry_id, security_id, qty, price, fee_minor, currency, investment_activity_label)
     SELECT x.id, s.id, x.q, x.p, x.f, x.c, x.l
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::numeric[], $5::numeric[], $6::bigint[], $7::char(3)[], $8::varchar[]) AS x(id, t, m, q, p, f, c, l)
       JOIN securities s ON s.ticker = x.t AND s.exchange_operating_mic = x.m`,
      [rows.map((t) => t.id), rows.map((t) => t.ticker), rows.map((t) => t.mic), rows.map((t) => t.qty), rows.map((t) => t.price), rows.map((t) => t.fee),
        rows.map((t) => t.currency), rows.map((t) => t.label)],
    );
  }
}
