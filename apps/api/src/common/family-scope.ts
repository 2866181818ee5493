/**
 * The one family whose rows a repository call may read or change. Repository methods on family-owned data take it
 * first and filter by it (child tables through their parent), so a query without a family cannot be written by
 * accident. It is made only where the family id is known to be the caller's: from an authenticated principal (the
 * guard read it from the database), or from a family id the calling code has just read from the database itself (a
 * job's import row, the CLI's user row); never from a request's parameters or body.
 */
declare const familyScopeBrand: unique symbol;

export interface FamilyScope {
  readonly familyId: string;
  readonly [familyScopeBrand]: true;
}

const scope = (familyId: string): FamilyScope => Object.freeze({ familyId }) as FamilyScope;

/** The family of an authenticated API-key or session principal. */
export function familyScopeOf(principal: { readonly familyId: string; readonly userId: string }): FamilyScope {
  return scope(principal.familyId);
}

/** A family id the caller has just read from the database (a job checked against its import row, a user row). */
export function familyScopeFromDatabase(familyId: string): FamilyScope {
  return scope(familyId);
}
