import { INVESTMENT_ACTIVITY_LABELS } from '@hearth/contracts';
import { isCurrencyCode, parseAmount } from '@hearth/domain/money';
import { feeBeyondTrade, isDay, minorUnitError, negativeError, sameNumber, sumOf, yearsBefore } from './cells';

// The service's own NDJSON format (Sure's export; docs/api/service-ndjson.md): one {"type": T, "data": {...}} object per
// line. Everything here is pure: parsing, the strict preflight and the publish plan (dependency order, resolved
// currencies, opening anchors). The database-dependent collision check receives the family's names as input.

/** Record types in the order they are published (and exported): references always point backwards. */
export const SERVICE_RECORD_TYPES = [
  'Account',
  'Balance',
  'Category',
  'Tag',
  'Merchant',
  'RecurringTransaction',
  'Transaction',
  'Transfer',
  'RejectedTransfer',
  'Trade',
  'Holding',
  'Valuation',
  'Budget',
  'BudgetCategory',
  'Rule',
] as const;
export type ServiceRecordType = (typeof SERVICE_RECORD_TYPES)[number];

/**
 * Rule conditions and actions whose value refers to a category, merchant or tag, by the table it is in. Stored
 * rules hold the record's id; files (RuleImport, this NDJSON) name the record, so a rule resolves in any family.
 */
const RULE_OPERAND_TABLES = new Map<string, 'categories' | 'merchants' | 'tags'>([
  ['transaction_category', 'categories'],
  ['set_transaction_category', 'categories'],
  ['transaction_merchant', 'merchants'],
  ['set_transaction_merchant', 'merchants'],
  ['transaction_tag', 'tags'],
  ['set_transaction_tags', 'tags'],
]);

/** The table a rule condition's or action's value refers to; undefined for values that name no record. */
export const ruleOperandTable = (op: Readonly<Record<string, unknown>>) =>
  RULE_OPERAND_TABLES.get(String(op.condition_type ?? op.action_type ?? ''));

/** The key each type is counted under in expected_record_counts and the readback. */
export const ENTITY_KEYS: Readonly<Record<ServiceRecordType, string>> = {
  Account: 'accounts',
  Balance: 'balances',
  Category: 'categories',
  Tag: 'tags',
  Merchant: 'merchants',
  RecurringTransaction: 'recurring_transactions',
  Transaction: 'transactions',
  Transfer: 'transfers',
  RejectedTransfer: 'rejected_transfers',
  Trade: 'trades',
  Holding: 'holdings',
  Valuation: 'valuations',
  Budget: 'budgets',
  BudgetCategory: 'budget_categories',
  Rule: 'rules',
};

/** A line longer than this is refused on its own (a 10 MB file of one line must not be parsed as a record). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Deeper nesting than this is refused before JSON.parse, so no recursion (ours or V8's) can overflow. */
export const MAX_NESTING = 32;

export interface NdjsonIssue {
  code: string;
  message: string;
  line?: number;
}

/** One non-blank line: its 1-based number in the file and, when it is a usable record, its type and data. */
export interface NdjsonLine {
  line: number;
  type: string | null;
  data: Record<string, unknown> | null;
  errors: NdjsonIssue[];
}

export interface ParsedNdjson {
  lines: NdjsonLine[];
  /** Every line-level problem (invalid JSON, not a record, unsupported type, too long, too deep). */
  issues: NdjsonIssue[];
  rowsCount: number;
  /** The 15 entity keys -> number of lines of that type. */
  expectedRecordCounts: Record<string, number>;
  /** Raw type -> count, unsupported types included. */
  recordTypeCounts: Record<string, number>;
}

const SUPPORTED = new Set<string>(SERVICE_RECORD_TYPES);
const isSupported = (type: string | null): type is ServiceRecordType => type !== null && SUPPORTED.has(type);
/** Keys that could reach an object's prototype when data is spread or merged later; dropped while parsing. */
const POISONED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Any spelling of those keys or of NUL in JSON text contains a backslash or one of these words. */
const SUSPICIOUS = /__proto__|constructor|prototype|\\/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isBlank = (v: unknown) =>
  v === undefined || v === null || v === false || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

export function emptyRecordCounts(): Record<string, number> {
  return Object.fromEntries(SERVICE_RECORD_TYPES.map((t) => [ENTITY_KEYS[t], 0]));
}

/** Deepest nesting of objects/arrays in a JSON text, counted without parsing (strings are skipped). */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** The first non-blank line is a JSON object with a type name and data (Sure's create-time check; blank lines before it are allowed). */
export function hasValidFirstLine(text: string): boolean {
  const match = /^[ \t\r\n]*([^\r\n]*)/.exec(text);
  const first = match?.[1]?.trim() ?? '';
  if (!first || Buffer.byteLength(first) > MAX_LINE_BYTES || nestingDepth(first, MAX_NESTING) > MAX_NESTING) return false;
  try {
    const value: unknown = JSON.parse(first);
    return isObject(value) && typeof value.type === 'string' && value.type.trim() !== '' && 'data' in value;
  } catch {
    return false;
  }
}

/** Splits and parses every line; problems are collected per line, never thrown. */
export function parseServiceNdjson(text: string): ParsedNdjson {
  const lines: NdjsonLine[] = [];
  const issues: NdjsonIssue[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const source = raw[i].trim();
    if (!source) continue;
    const entry: NdjsonLine = { line: i + 1, type: null, data: null, errors: [] };
    lines.push(entry);
    const fail = (code: string, message: string) => {
      const issue = { code, message: `Line ${entry.line} ${message}`, line: entry.line };
      entry.errors.push(issue);
      issues.push(issue);
    };
    if (source.length > MAX_LINE_BYTES / 4 && Buffer.byteLength(source) > MAX_LINE_BYTES) {
      fail('line_too_large', `is larger than ${MAX_LINE_BYTES / 1024 / 1024} MB.`);
      continue;
    }
    if (nestingDepth(source, MAX_NESTING) > MAX_NESTING) {
      fail('invalid_ndjson_record', `nests objects or arrays deeper than ${MAX_NESTING} levels.`);
      continue;
    }
    let value: unknown;
    let hasNul = false;
    try {
      // The reviver costs a call per value: only lines that could hold such a key or a NUL pay for it.
      value = SUSPICIOUS.test(source)
        ? JSON.parse(source, (key, v) => {
            if (POISONED_KEYS.has(key)) return undefined;
            if (typeof v === 'string' && v.includes('\u0000')) hasNul = true;
            return v;
          })
        : JSON.parse(source);
    } catch (error) {
      fail('invalid_json', `is not valid JSON: ${(error as Error).message.slice(0, 120)}`);
      continue;
    }
    if (!isObject(value)) {
      fail('invalid_ndjson_record', 'must be a JSON object.');
      continue;
    }
    if (typeof value.type !== 'string' || value.type.trim() === '' || !('data' in value)) {
      fail('invalid_ndjson_record', 'must include type and data.');
      continue;
    }
    const type = value.type;
    entry.type = type;
    if (!isSupported(type)) {
      fail('unsupported_record_type', `has unsupported record type ${JSON.stringify(type.slice(0, 60))}.`);
      continue;
    }
    if (!isObject(value.data)) {
      fail('invalid_ndjson_record', 'data must be a JSON object.');
      continue;
    }
    if (hasNul) {
      fail('invalid_ndjson_record', 'contains a NUL character (\\u0000), which text cannot store.');
      continue;
    }
    entry.data = value.data;
  }
  return ndjsonOf(lines, issues);
}

/** A file of these lines and issues, counted: every line is a row, and each line with a type counts for that type. */
function ndjsonOf(lines: NdjsonLine[], issues: NdjsonIssue[]): ParsedNdjson {
  const expectedRecordCounts = emptyRecordCounts();
  const recordTypeCounts: Record<string, number> = Object.create(null);
  for (const { type } of lines) {
    if (type === null) continue;
    recordTypeCounts[type] = (recordTypeCounts[type] ?? 0) + 1;
    if (isSupported(type)) expectedRecordCounts[ENTITY_KEYS[type]]++;
  }
  return { lines, issues, rowsCount: lines.length, expectedRecordCounts, recordTypeCounts: { ...recordTypeCounts } };
}

// ---------------------------------------------------------------------------------------------------------------
// Field rules

type FieldKind = 'id' | 'string' | 'date' | 'decimal' | 'currency' | 'ids';
interface FieldRule {
  kind: FieldKind;
  required?: boolean;
  /** Source-id key the value must resolve to inside the file. */
  ref?: 'accounts' | 'categories' | 'tags' | 'merchants' | 'transactions' | 'budgets';
  max?: number;
  /** Most digits before the decimal point (the database column's range). */
  intDigits?: number;
  /** Stored in minor units of the record's currency: no more decimals than that currency has. */
  money?: boolean;
  /** The values a string may take. */
  oneOf?: readonly string[];
}

const AMOUNT: FieldRule = { kind: 'decimal', intDigits: 13, money: true };
const FIELDS: Record<ServiceRecordType, Record<string, FieldRule>> = {
  Account: {
    id: { kind: 'id', required: true },
    name: { kind: 'string', required: true, max: 200 },
    balance: { ...AMOUNT, required: true },
    cash_balance: AMOUNT,
    accountable_type: { kind: 'string', required: true },
    currency: { kind: 'currency' },
    subtype: { kind: 'string', max: 50 },
    institution_name: { kind: 'string', max: 200 },
    opening_balance_date: { kind: 'date' },
    opening_balance_on: { kind: 'date' },
  },
  Balance: {
    account_id: { kind: 'id', required: true, ref: 'accounts' },
    date: { kind: 'date', required: true },
    balance: { ...AMOUNT, required: true },
    currency: { kind: 'currency' },
  },
  Category: {
    id: { kind: 'id', required: true },
    name: { kind: 'string', required: true, max: 200 },
    parent_id: { kind: 'id', ref: 'categories' },
    color: { kind: 'string', max: 7 },
    lucide_icon: { kind: 'string', max: 50 },
  },
  Tag: { id: { kind: 'id', required: true }, name: { kind: 'string', required: true, max: 200 }, color: { kind: 'string', max: 7 } },
  Merchant: {
    id: { kind: 'id', required: true },
    name: { kind: 'string', required: true, max: 200 },
    color: { kind: 'string', max: 7 },
    logo_url: { kind: 'string', max: 500 },
    website_url: { kind: 'string', max: 500 },
  },
  RecurringTransaction: {
    id: { kind: 'id', required: true },
    amount: { ...AMOUNT, required: true },
    expected_day_of_month: { kind: 'decimal', required: true },
    last_occurrence_date: { kind: 'date', required: true },
    next_expected_date: { kind: 'date', required: true },
    account_id: { kind: 'id', ref: 'accounts' },
    merchant_id: { kind: 'id', ref: 'merchants' },
    currency: { kind: 'currency' },
  },
  Transaction: {
    id: { kind: 'id', required: true },
    account_id: { kind: 'id', required: true, ref: 'accounts' },
    date: { kind: 'date', required: true },
    amount: { ...AMOUNT, required: true },
    name: { kind: 'string', max: 500 },
    currency: { kind: 'currency' },
    category_id: { kind: 'id', ref: 'categories' },
    merchant_id: { kind: 'id', ref: 'merchants' },
    tag_ids: { kind: 'ids', ref: 'tags' },
  },
  Transfer: {
    inflow_transaction_id: { kind: 'id', required: true, ref: 'transactions' },
    outflow_transaction_id: { kind: 'id', required: true, ref: 'transactions' },
  },
  RejectedTransfer: {
    inflow_transaction_id: { kind: 'id', required: true },
    outflow_transaction_id: { kind: 'id', required: true },
  },
  Trade: {
    account_id: { kind: 'id', required: true, ref: 'accounts' },
    date: { kind: 'date', required: true },
    amount: { ...AMOUNT, required: true },
    qty: { kind: 'decimal', required: true, intDigits: 16 },
    price: { kind: 'decimal', required: true, intDigits: 9 },
    ticker: { kind: 'string', required: true, max: 30 },
    currency: { kind: 'currency' },
    exchange_operating_mic: { kind: 'string', max: 10 },
    name: { kind: 'string', max: 500 },
    // Optional: files without it (older exports, Sure's) paid none. Checked further by tradeFeeError.
    fee: AMOUNT,
    // Optional: files without it (older exports, Sure's) get Buy or Sell by the sign of qty.
    investment_activity_label: { kind: 'string', oneOf: INVESTMENT_ACTIVITY_LABELS },
  },
  Holding: {
    account_id: { kind: 'id', required: true, ref: 'accounts' },
    date: { kind: 'date', required: true },
    amount: { ...AMOUNT, required: true },
    qty: { kind: 'decimal', required: true },
    price: { kind: 'decimal', required: true },
    ticker: { kind: 'string', required: true },
    currency: { kind: 'currency' },
  },
  Valuation: {
    account_id: { kind: 'id', required: true, ref: 'accounts' },
    date: { kind: 'date', required: true },
    amount: { ...AMOUNT, required: true },
    currency: { kind: 'currency' },
    name: { kind: 'string', max: 500 },
  },
  Budget: {
    id: { kind: 'id', required: true },
    start_date: { kind: 'date', required: true },
    end_date: { kind: 'date', required: true },
    budgeted_spending: AMOUNT,
    expected_income: AMOUNT,
    currency: { kind: 'currency' },
  },
  BudgetCategory: {
    budget_id: { kind: 'id', required: true, ref: 'budgets' },
    category_id: { kind: 'id', required: true, ref: 'categories' },
    budgeted_spending: AMOUNT,
    currency: { kind: 'currency' },
  },
  Rule: { id: { kind: 'id', required: true }, name: { kind: 'string', max: 200 }, effective_date: { kind: 'date' } },
};

const SPLIT_FIELDS: Record<string, FieldRule> = {
  id: { kind: 'id' },
  amount: { ...AMOUNT, required: true },
  name: { kind: 'string', max: 500 },
  category_id: { kind: 'id', ref: 'categories' },
  merchant_id: { kind: 'id', ref: 'merchants' },
  tag_ids: { kind: 'ids', ref: 'tags' },
};

const ACCOUNTABLE_SUBTYPES: Record<string, string[] | null> = {
  Depository: ['checking', 'savings', 'hsa', 'cd', 'money_market'],
  CreditCard: ['credit_card'],
  Loan: ['mortgage', 'student', 'auto', 'home_equity', 'line_of_credit', 'business', 'other'],
  Crypto: ['wallet', 'exchange'],
  Investment: null,
  Property: null,
  Vehicle: null,
  OtherAsset: null,
  OtherLiability: null,
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date written YYYY-MM-DD (2024-02-30 is not). */
export function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  return isDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

const DECIMAL = /^[+-]?(\d+)(?:\.(\d+))?$/;
/**
 * A decimal amount as exact text: strings in plain notation ("-12.50") or JSON numbers that print that way (12.5).
 * 1e400, NaN-like strings, exponents and grouping are refused; "-0" is zero.
 */
export function decimalText(v: unknown): string | null {
  let text: string;
  if (typeof v === 'string') text = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
  else return null;
  return DECIMAL.test(text) ? text.replace(/^\+/, '') : null;
}

/** A transaction's split lines: split_lines, else Sure's aliases splitLines and splits; the first given is the one published. */
export const splitLinesOf = (d: Record<string, unknown>): unknown =>
  [d.split_lines, d.splitLines, d.splits].find((v) => v !== undefined && v !== null);

const sourceId = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const idList = (v: unknown): string[] => (Array.isArray(v) ? v.map(sourceId).filter((x): x is string => x !== null) : []);

const RULE_ENTRIES = new Map<Record<string, FieldRule>, Array<[string, FieldRule]>>(
  [...Object.values(FIELDS), SPLIT_FIELDS].map((rules) => [rules, Object.entries(rules)]),
);
function seenAt(map: Map<string, string[]>, id: string, where: string): void {
  const list = map.get(id);
  if (list) list.push(where);
  else map.set(id, [where]);
}

/**
 * Each record's currency: its own, else its account's or budget's in the file, else the family's. Preflight checks
 * amounts in it; the plan stores it with the record for publishing.
 */
function recordCurrencies(records: Records, familyCurrency: string): (data: Record<string, unknown>) => string {
  const own = (d: Record<string, unknown>) => (isCurrencyCode(d.currency) ? d.currency : null);
  const accounts = new Map<string, string>();
  const budgets = new Map<string, string>();
  for (const r of records) {
    const id = sourceId(r.data.id);
    if (id && r.type === 'Account') accounts.set(id, own(r.data) ?? familyCurrency);
    if (id && r.type === 'Budget') budgets.set(id, own(r.data) ?? familyCurrency);
  }
  return (d) => own(d) ?? accounts.get(sourceId(d.account_id) ?? '') ?? budgets.get(sourceId(d.budget_id) ?? '') ?? familyCurrency;
}

/**
 * Why a trade's fee cannot be stored as it is, or null: negative; more than the trade allows. A buy's amount
 * includes its fee, so the fee is at most the amount; a sell (negative qty) gets qty x price less the fee, so the fee
 * is at most qty x price. Values that are absent or not decimals, or finer than the currency, are left to the field
 * rules.
 */
function tradeFeeError(d: Record<string, unknown>): string | null {
  const fee = isBlank(d.fee) ? null : decimalText(d.fee);
  if (fee === null) return null;
  if (fee.startsWith('-') && /[1-9]/.test(fee)) return negativeError('fee', fee);
  const [amount, qty, price] = [d.amount, d.qty, d.price].map(decimalText);
  const beyond = feeBeyondTrade(fee, { sell: qty !== null && qty.startsWith('-'), amount, qty, price });
  if (beyond === 'amount') return `fee ${fee} is more than the amount ${amount}, which includes it`;
  if (beyond === 'qty x price') return `fee ${fee} is more than qty x price (${qty!.slice(1)} x ${price}), from which it is taken`;
  return null;
}

/** The family's existing records a ServiceImport must not collide with. */
export interface ExistingFamilyNames {
  categories: Set<string>;
  tags: Set<string>;
  merchants: Set<string>;
  /** Household budgets by "start_date..end_date". */
  budgetPeriods: Set<string>;
}

export interface PreflightResult {
  valid: boolean;
  errors: NdjsonIssue[];
  warnings: NdjsonIssue[];
}

type Records = Array<NdjsonLine & { type: ServiceRecordType; data: Record<string, unknown> }>;
const usable = (parsed: ParsedNdjson): Records =>
  parsed.lines.filter((l): l is Records[number] => l.errors.length === 0 && isSupported(l.type) && l.data !== null);

/**
 * Sure's strict preflight plus the checks its lenient parsing lacked: ISO dates, plain
 * decimals within the columns' range, ISO currency codes, string lengths, category cycles, budget periods.
 */
export function preflightServiceNdjson(parsed: ParsedNdjson, existing: ExistingFamilyNames, options: { familyCurrency: string }): PreflightResult {
  const errors: NdjsonIssue[] = [...parsed.issues];
  const warnings: NdjsonIssue[] = [];
  if (parsed.rowsCount === 0) errors.push({ code: 'no_data_rows', message: 'No data rows were found.' });
  const records = usable(parsed);
  const currencyOf = recordCurrencies(records, options.familyCurrency);
  const err = (line: number, code: string, message: string) => errors.push({ code, message: `Line ${line} ${message}`, line });

  // Source ids, split-line ids included, and where each was first seen.
  const sources: Record<string, Map<string, string[]>> = {
    accounts: new Map(), categories: new Map(), tags: new Map(), merchants: new Map(), recurring_transactions: new Map(),
    transactions: new Map(), budgets: new Map(),
  };
  const SOURCE_KEYS: Partial<Record<ServiceRecordType, string>> = {
    Account: 'accounts', Category: 'categories', Tag: 'tags', Merchant: 'merchants', RecurringTransaction: 'recurring_transactions',
    Transaction: 'transactions', Budget: 'budgets',
  };
  for (const r of records) {
    const key = SOURCE_KEYS[r.type];
    const id = sourceId(r.data.id);
    if (key && id) seenAt(sources[key], id, `Line ${r.line} ${r.type}`);
    const splits = r.type === 'Transaction' ? splitLinesOf(r.data) : undefined;
    if (Array.isArray(splits)) {
      splits.forEach((s, k) => {
        const sid = isObject(s) ? sourceId(s.id) : null;
        if (sid) seenAt(sources.transactions, sid, `Line ${r.line} Transaction split line ${k + 1}`);
      });
    }
  }
  for (const [key, ids] of Object.entries(sources)) {
    for (const [id, where] of ids) {
      if (where.length > 1) {
        errors.push({ code: 'duplicate_source_id', message: `${key.replace(/_/g, ' ').replace(/s$/, '')} source id ${JSON.stringify(id)} appears more than once (${where.join(', ')}).` });
      }
    }
  }

  // Taxonomy names: unique in the file and new to the family (exact, case-sensitive, like the unique indexes).
  for (const [type, table] of [['Category', 'categories'], ['Tag', 'tags'], ['Merchant', 'merchants']] as const) {
    const seen = new Map<string, number[]>();
    for (const r of records.filter((x) => x.type === type)) {
      const name = typeof r.data.name === 'string' ? r.data.name.trim() : '';
      if (!name) continue;
      seen.set(name, [...(seen.get(name) ?? []), r.line]);
      if (existing[table].has(name)) err(r.line, 'existing_taxonomy_collision', `${type} name ${JSON.stringify(name)} already exists in this family.`);
    }
    for (const [name, lines] of seen) {
      if (lines.length > 1) errors.push({ code: 'duplicate_taxonomy_name', message: `${type} name ${JSON.stringify(name)} appears more than once in the NDJSON on lines ${lines.join(', ')}.` });
    }
  }

  const checkFields = (line: number, label: string, data: Record<string, unknown>, rules: Record<string, FieldRule>, currency: string) => {
    const entries = RULE_ENTRIES.get(rules) ?? Object.entries(rules);
    const missing = entries.filter(([f, rule]) => rule.required && isBlank(data[f])).map(([f]) => f);
    if (missing.length) err(line, 'missing_required_fields', `${label} is missing required field(s): ${missing.join(', ')}.`);
    for (const [field, rule] of entries) {
      const v = data[field];
      if (isBlank(v)) continue;
      const shown = () => JSON.stringify(v)?.slice(0, 60); // only built for a message: most values are fine
      if (rule.kind === 'id' && sourceId(v) === null) err(line, 'invalid_field', `${label} ${field} must be a string id, got ${shown()}.`);
      if (rule.kind === 'string' && typeof v !== 'string') err(line, 'invalid_field', `${label} ${field} must be a string.`);
      if (rule.kind === 'string' && typeof v === 'string' && rule.max && v.trim().length > rule.max) {
        err(line, 'value_too_long', `${label} ${field} is longer than ${rule.max} characters.`);
      }
      if (rule.oneOf && typeof v === 'string' && !rule.oneOf.includes(v.trim())) {
        err(line, 'invalid_field', `${label} ${field} must be one of ${rule.oneOf.join(', ')}, got ${shown()}.`);
      }
      if (rule.kind === 'date' && !isIsoDate(v)) err(line, 'invalid_date', `${label} ${field} must be a date written YYYY-MM-DD, got ${shown()}.`);
      if (rule.kind === 'currency' && !isCurrencyCode(v)) err(line, 'invalid_currency', `${label} ${field} must be an ISO 4217 currency code, got ${shown()}.`);
      if (rule.kind === 'decimal') {
        const text = decimalText(v);
        if (text === null) err(line, 'invalid_amount', `${label} ${field} must be a decimal number, got ${shown()}.`);
        else if (rule.intDigits && DECIMAL.exec(text)![1].replace(/^0+/, '').length > rule.intDigits) {
          err(line, 'invalid_amount', `${label} ${field} ${text} is out of range.`);
        } else if (rule.money) {
          const finer = minorUnitError(field, text, currency);
          if (finer) err(line, 'invalid_amount', `${label} ${finer}.`);
        }
      }
      if (rule.kind === 'ids' && (!Array.isArray(v) || v.some((x) => sourceId(x) === null))) err(line, 'invalid_field', `${label} ${field} must be an array of ids.`);
      if (rule.ref && rule.kind !== 'ids' && sourceId(v) !== null && !sources[rule.ref].has(sourceId(v)!)) {
        err(line, 'missing_reference', `${label} references missing ${field} ${shown()}.`);
      }
      if (rule.ref && rule.kind === 'ids') {
        for (const id of idList(v)) if (!sources[rule.ref].has(id)) err(line, 'missing_reference', `${label} references missing ${field} ${JSON.stringify(id)}.`);
      }
    }
  };

  const valuations = new Map<string, number>();
  const budgetPeriods = new Map<string, number>();
  const budgetCategories = new Map<string, number>();
  const transferSides = new Map<string, number>();
  const parentOf = new Map<string, string>();
  for (const r of records) {
    const d = r.data;
    checkFields(r.line, r.type, d, FIELDS[r.type], currencyOf(d));
    if (r.type === 'Account' && !isBlank(d.accountable_type)) {
      const type = String(d.accountable_type);
      if (!Object.hasOwn(ACCOUNTABLE_SUBTYPES, type)) err(r.line, 'invalid_accountable_type', `Account has invalid accountable_type ${JSON.stringify(type.slice(0, 60))}.`);
      const accountable = isObject(d.accountable) ? d.accountable : {};
      // The one published: accountable.subtype unless blank, else subtype (whose length the field rules check).
      const subtype = [accountable.subtype, d.subtype].find((v) => !isBlank(v));
      const max = FIELDS.Account.subtype.max!;
      if (subtype !== d.subtype && typeof subtype === 'string' && subtype.trim().length > max) err(r.line, 'value_too_long', `Account subtype is longer than ${max} characters.`);
      const allowed = Object.hasOwn(ACCOUNTABLE_SUBTYPES, type) ? ACCOUNTABLE_SUBTYPES[type] : null;
      if (allowed && !isBlank(subtype) && !allowed.includes(String(subtype))) {
        err(r.line, 'invalid_accountable_subtype', `Account has invalid ${type} subtype ${JSON.stringify(String(subtype).slice(0, 60))}.`);
      }
    }
    if (r.type === 'Category' && sourceId(d.parent_id) && sourceId(d.id)) parentOf.set(sourceId(d.id)!, sourceId(d.parent_id)!);
    if (r.type === 'Trade') {
      const feeError = tradeFeeError(d);
      if (feeError) err(r.line, 'invalid_amount', `Trade ${feeError}.`);
    }
    const splits = r.type === 'Transaction' ? splitLinesOf(d) : undefined;
    if (splits !== undefined) {
      if (!Array.isArray(splits)) err(r.line, 'invalid_split_lines', 'Transaction split_lines must be an array.');
      else if (splits.length) {
        let ok = true;
        splits.forEach((s, k) => {
          if (!isObject(s)) {
            ok = false;
            return err(r.line, 'invalid_split_line', `Transaction split line ${k + 1} must be a JSON object.`);
          }
          const before = errors.length;
          checkFields(r.line, `Transaction split line ${k + 1}`, s, SPLIT_FIELDS, currencyOf(d));
          if (errors.length > before) ok = false;
        });
        const total = decimalText(d.amount);
        if (ok && total !== null) {
          const sum = sumOf((splits as Record<string, unknown>[]).map((s) => decimalText(s.amount)!));
          if (!sameNumber(sum, total)) {
            err(r.line, 'split_amount_mismatch', `Transaction split line amounts must sum to transaction amount ${total} but sum to ${sum}.`);
          }
        }
      }
    }
    if (r.type === 'Transfer') {
      const inflow = sourceId(d.inflow_transaction_id);
      const outflow = sourceId(d.outflow_transaction_id);
      if (inflow && inflow === outflow) err(r.line, 'invalid_transfer', 'Transfer must link two different transactions.');
      for (const side of [inflow, outflow]) {
        if (!side) continue;
        if (transferSides.has(side)) err(r.line, 'duplicate_transfer', `Transfer uses transaction ${JSON.stringify(side)} already linked on line ${transferSides.get(side)}.`);
        else transferSides.set(side, r.line);
      }
    }
    if (r.type === 'RejectedTransfer') {
      for (const field of ['inflow_transaction_id', 'outflow_transaction_id']) {
        const id = sourceId(d[field]);
        if (id && !sources.transactions.has(id)) {
          warnings.push({ code: 'skipped_missing_reference', message: `Line ${r.line} RejectedTransfer references missing ${field} ${JSON.stringify(id)}. It will be skipped during import.`, line: r.line });
        }
      }
    }
    if (r.type === 'Valuation' && isIsoDate(d.date) && sourceId(d.account_id)) {
      const key = `${sourceId(d.account_id)}|${d.date}`;
      if (valuations.has(key)) err(r.line, 'duplicate_valuation', `duplicates valuation for account ${JSON.stringify(sourceId(d.account_id))} on ${d.date}; first seen on line ${valuations.get(key)}.`);
      else valuations.set(key, r.line);
    }
    if (r.type === 'Budget' && isIsoDate(d.start_date) && isIsoDate(d.end_date)) {
      const key = `${d.start_date}..${d.end_date}`;
      if (d.end_date < d.start_date) err(r.line, 'invalid_date', 'Budget end_date is before start_date.');
      if (budgetPeriods.has(key)) err(r.line, 'duplicate_budget', `Budget for ${key} duplicates the one on line ${budgetPeriods.get(key)}.`);
      else budgetPeriods.set(key, r.line);
      if (existing.budgetPeriods.has(key)) err(r.line, 'existing_budget_collision', `Budget for ${key} already exists in this family.`);
    }
    if (r.type === 'BudgetCategory' && sourceId(d.budget_id) && sourceId(d.category_id)) {
      const key = `${sourceId(d.budget_id)}|${sourceId(d.category_id)}`;
      if (budgetCategories.has(key)) err(r.line, 'duplicate_budget_category', `BudgetCategory duplicates the one on line ${budgetCategories.get(key)}.`);
      else budgetCategories.set(key, r.line);
    }
  }
  for (const start of parentOf.keys()) {
    const seen = new Set<string>([start]);
    for (let p = parentOf.get(start); p !== undefined; p = parentOf.get(p)) {
      if (seen.has(p)) {
        errors.push({ code: 'invalid_category_parent', message: `Category source id ${JSON.stringify(start)} is its own ancestor.` });
        break;
      }
      seen.add(p);
    }
  }
  return { valid: errors.length === 0, errors, warnings };
}

/** Sure's error text stored in imports.error and split into the 422's `errors` lines. */
export function preflightErrorText(errors: NdjsonIssue[], limit = 100): string {
  const shown = errors.slice(0, limit).map((e) => e.message);
  if (errors.length > limit) shown.push(`... and ${errors.length - limit} more.`);
  return ['Sure import preflight failed:', ...shown].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Publish plan

/** A record ready to publish: dependency position, resolved currency and (accounts) the opening anchor to add. */
export interface PlannedRecord {
  line: number;
  type: ServiceRecordType;
  data: Record<string, unknown>;
  currency: string;
  /** Accounts only: date of the synthesized opening_anchor valuation, null when none is added. */
  anchorDate?: string | null;
}

const dayBefore = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

/**
 * Orders a preflighted file for publishing: by type (SERVICE_RECORD_TYPES), categories parents first, otherwise by
 * line; resolves each record's currency (record, else its account's or budget's, else the family's); and decides
 * the opening anchors Sure synthesizes for accounts with a balance and no opening_anchor valuation.
 */
export function planServiceImport(parsed: ParsedNdjson, options: { familyCurrency: string; today: string }): PlannedRecord[] {
  const records = usable(parsed);
  const currencyOf = recordCurrencies(records, options.familyCurrency);
  const rankOf = publishRanks(records);
  const anchored = new Set<string>();
  const earliest = new Map<string, string>();
  for (const r of records) {
    const account = sourceId(r.data.account_id);
    if (!account) continue;
    if (r.type === 'Valuation' && r.data.kind === 'opening_anchor') anchored.add(account);
    if (['Balance', 'Transaction', 'Trade', 'Holding', 'Valuation'].includes(r.type) && isIsoDate(r.data.date)) {
      const prev = earliest.get(account);
      if (!prev || r.data.date < prev) earliest.set(account, r.data.date);
    }
  }
  const twoYearsAgo = yearsBefore(options.today, 2);

  const planned = records.map((r): PlannedRecord & { rank: number } => {
    const d = r.data;
    const rank = rankOf(r);
    const record: PlannedRecord & { rank: number } = { line: r.line, type: r.type, data: d, currency: currencyOf(d), rank };
    if (r.type === 'Account') {
      const id = sourceId(d.id)!;
      const skip = anchored.has(id) || truthy(d.skip_opening_balance_import) || truthy(d.authoritative_balance_history) || decimalText(d.balance) === null;
      const given = [d.opening_balance_date, d.opening_balance_on].find(isIsoDate);
      const candidates = [given, earliest.has(id) ? dayBefore(earliest.get(id)!) : undefined].filter((x): x is string => Boolean(x));
      record.anchorDate = skip ? null : candidates.length ? candidates.sort()[0] : twoYearsAgo;
    }
    return record;
  });
  planned.sort((a, b) => a.rank - b.rank || a.line - b.line);
  return planned.map(({ rank: _rank, ...r }) => r);
}

/** Publish position of a record before its line breaks ties: by type (SERVICE_RECORD_TYPES), categories parents first. */
function publishRanks(records: Records): (r: Records[number]) => number {
  const categoryParent = new Map<string, string>();
  for (const r of records) {
    const id = sourceId(r.data.id);
    if (id && r.type === 'Category' && sourceId(r.data.parent_id)) categoryParent.set(id, sourceId(r.data.parent_id)!);
  }
  const depth = (id: string | null) => {
    let n = 0;
    for (let p = id ? categoryParent.get(id) : undefined; p !== undefined && n < 1000; p = categoryParent.get(p)) n++;
    return n;
  };
  return (r) => SERVICE_RECORD_TYPES.indexOf(r.type) * 10_000 + (r.type === 'Category' ? depth(sourceId(r.data.id)) : 0);
}

/**
 * The file line of each row a ServiceImport stores, in row order (row n is element n - 1): its records in publish
 * order (planServiceImport's), then the lines with problems in file order. It depends on the file alone, so a row
 * number names the same line whichever rows are skipped.
 */
export function serviceRowLines(parsed: ParsedNdjson): number[] {
  const records = usable(parsed);
  const rankOf = publishRanks(records);
  const ordered = records.map((r) => ({ line: r.line, rank: rankOf(r) })).sort((a, b) => a.rank - b.rank || a.line - b.line);
  return [...ordered.map((r) => r.line), ...parsed.lines.filter((l) => l.errors.length).map((l) => l.line)];
}

/**
 * The file as if the given lines were blank: they are neither records nor problems, nor counted (rowsCount, the
 * expected and raw type counts). How a ServiceImport leaves out its skipped rows.
 */
export function withoutLines(parsed: ParsedNdjson, lines: ReadonlySet<number>): ParsedNdjson {
  if (!lines.size) return parsed;
  return ndjsonOf(
    parsed.lines.filter((l) => !lines.has(l.line)),
    parsed.issues.filter((i) => i.line === undefined || !lines.has(i.line)),
  );
}

/** Minor units of a decimal amount in `currency` as a string (for bigint columns); rounding half away from zero. */
export function minorUnitsText(amount: unknown, currency: string): string | null {
  const text = decimalText(amount);
  return text === null ? null : parseAmount(text, currency).toString();
}
