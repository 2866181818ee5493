// Set-based seeding of one household for the benchmarks (budget.mjs, load.mjs): 8 accounts (two currencies, a card, a
// loan, a 401(k), a disabled one), 15 categories with 3 subcategories each, a daily EUR rate with every 10th day
// missing, and `entries` transactions of every kind spread evenly over `days` days from `start`, some pending or excluded.

/** Seeds the family's accounts, categories, rates and entries; returns the number of accounts. */
export async function seedHousehold(dataSource, familyId, { entries, days = 1826, start = '2020-01-01', chunk = 100_000 }) {
  const accounts = await dataSource.query(
    `INSERT INTO accounts (family_id, name, accountable_type, subtype, classification, currency, status)
     SELECT $1, a.name, a.type, a.subtype, a.class, a.currency, a.status
       FROM (VALUES ('Checking', 'Depository', NULL, 'asset', 'USD', 'active'),
                    ('Savings', 'Depository', 'savings', 'asset', 'USD', 'active'),
                    ('Euro account', 'Depository', NULL, 'asset', 'EUR', 'active'),
                    ('Card', 'CreditCard', NULL, 'liability', 'USD', 'active'),
                    ('Mortgage', 'Loan', NULL, 'liability', 'USD', 'active'),
                    ('401(k)', 'Investment', '401k', 'asset', 'USD', 'active'),
                    ('Brokerage', 'Investment', 'brokerage', 'asset', 'USD', 'active'),
                    ('Old account', 'Depository', NULL, 'asset', 'USD', 'disabled'))
            AS a(name, type, subtype, class, currency, status)
     RETURNING id, currency`,
    [familyId],
  );
  await dataSource.query(
    `INSERT INTO categories (family_id, name) SELECT $1, 'Category ' || g FROM generate_series(1, 15) g`,
    [familyId],
  );
  await dataSource.query(
    `INSERT INTO categories (family_id, name, parent_id)
     SELECT c.family_id, c.name || ' / ' || s, c.id FROM categories c, generate_series(1, 3) s WHERE c.family_id = $1`,
    [familyId],
  );
  const categories = (await dataSource.query(`SELECT id FROM categories WHERE family_id = $1 ORDER BY name`, [familyId])).map((r) => r.id);
  await dataSource.query(
    `INSERT INTO exchange_rates (from_currency, to_currency, date, rate)
     SELECT 'EUR', 'USD', $2::date + d, 1.05 + (d % 17) / 100.0 FROM generate_series(0, $1 - 1) d WHERE d % 10 <> 0
     ON CONFLICT (from_currency, to_currency, date) DO NOTHING`,
    [days, start],
  );
  // In date order, as bank exports and imports arrive; in chunks, so PGlite's one connection is not held for long.
  for (let first = 0; first < entries; first += chunk) {
    const last = Math.min(entries, first + chunk) - 1;
    await dataSource.query(
      `WITH acc AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg(currency ORDER BY id) AS currencies
                      FROM accounts WHERE family_id = $1),
            ins AS (
              INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, excluded)
              SELECT $1, acc.ids[1 + g % cardinality(acc.ids)], 'Transaction', $7::date + (g::bigint * $4 / $6)::int,
                     'Payee ' || (g % 400), ((g::bigint * 104729) % 40000) - 8000, acc.currencies[1 + g % cardinality(acc.ids)], g % 97 = 0
                FROM generate_series($2::int, $3::int) g, acc
              RETURNING id, amount_minor)
       INSERT INTO transactions (entry_id, category_id, kind, pending)
       SELECT ins.id,
              CASE WHEN ins.amount_minor % 11 = 0 THEN NULL ELSE ($5::uuid[])[1 + abs(ins.amount_minor) % cardinality($5::uuid[])] END,
              (ARRAY['standard','standard','standard','standard','standard','standard','standard','standard','standard',
                     'standard','standard','standard','standard','standard','funds_movement','cc_payment','loan_payment',
                     'one_time','investment_contribution','standard'])[1 + abs(ins.amount_minor) % 20],
              abs(ins.amount_minor) % 101 = 0
         FROM ins`,
      [familyId, first, last, days, categories, entries, start],
    );
  }
  // Settled, as autovacuum leaves a bulk load: statistics, and a visibility map for the index-only scans budgets use.
  await dataSource.query('VACUUM (ANALYZE) entries, transactions, accounts, exchange_rates');
  return accounts.length;
}
