/**
 * Why a closed account refuses something new (a transaction, an import): it keeps its history as it is, and
 * reopening it is the way to add to it. `field` names the request field that gave the account.
 */
export const closedAccountMessage = (field: string) =>
  `${field} is a closed account, which takes no new transactions: reopen it first (PATCH /api/v1/accounts/{id} with closed: false)`;
