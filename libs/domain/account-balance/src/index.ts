export { balanceKindOf, rollForward } from './roll-forward';
export type { BalanceKind, BalanceStart, CurrencyFlows, RolledBalance } from './roll-forward';
export { anchorReaching, bankSigned, statedBalanceDisagreement } from './stated-balance';
export type { BalanceComparison } from './stated-balance';
