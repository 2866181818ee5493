export { balanceKindOf, rollForward } from './roll-forward';
export type { BalanceKind, BalanceStart, CurrencyFlows, RolledBalance } from './roll-forward';
