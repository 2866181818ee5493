/** The account types in the order the accounts page groups them, assets first, with their headings. */
export const ACCOUNT_TYPE_GROUPS: Array<{ type: string; label: string }> = [
  { type: 'depository', label: 'Cash' },
  { type: 'investment', label: 'Investments' },
  { type: 'crypto', label: 'Crypto' },
  { type: 'property', label: 'Property' },
  { type: 'vehicle', label: 'Vehicles' },
  { type: 'other_asset', label: 'Other assets' },
  { type: 'credit_card', label: 'Credit cards' },
  { type: 'loan', label: 'Loans' },
  { type: 'other_liability', label: 'Other liabilities' },
];

export const accountTypeLabel = (type: string): string => ACCOUNT_TYPE_GROUPS.find((group) => group.type === type)?.label ?? type;
