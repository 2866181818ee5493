import { Injectable } from '@nestjs/common';
import { ROLES, Role } from '@hearth/contracts';
import { hash } from 'argon2';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth/password-length';
import { ApiError } from '../common/api-error';
import { currencyCodeProblem } from '../common/currency-field';
import { Transactions } from '../database/transactions';
import type { Family } from '../finance/entities/family.entity';
import { FamiliesRepository } from '../finance/families.repository';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateUserInput {
  email: string;
  password?: string;
  role: Role;
  familyName?: string;
  familyId?: string;
  currency?: string;
  /** First-run setup: refuse (409) unless the instance has no user yet, decided under a lock. */
  onlyWhenNoUsers?: boolean;
}

/** What is wrong with a new user's fields on their own, before any database lookup (CLI usage errors, 422s). */
export function newUserProblems(input: Pick<CreateUserInput, 'email' | 'password' | 'role' | 'familyName' | 'familyId' | 'currency'>): string[] {
  const email = normalizeEmail(input.email);
  const errors: string[] = [];
  if (!EMAIL.test(email)) errors.push('email must be a valid e-mail address');
  else if (email.length > 320) errors.push('email must be at most 320 characters');
  if (!ROLES.includes(input.role)) errors.push(`role must be one of ${ROLES.join(', ')}`);
  if (input.password !== undefined && (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX)) {
    errors.push(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  if (!input.familyId && !input.familyName?.trim()) errors.push('a family name or family id is required');
  else if (!input.familyId && input.familyName!.trim().length > 200) errors.push('family name must be at most 200 characters');
  // The CLI takes "eur" as EUR; the HTTP DTOs have already refused anything but an upper-case code.
  const currency = input.currency == null ? null : currencyCodeProblem('currency', input.currency.toUpperCase());
  if (currency) errors.push(currency);
  return errors;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly families: FamiliesRepository,
    private readonly transactions: Transactions,
  ) {}

  /** Creates a user, and the family too when it is named and new. */
  async create(input: CreateUserInput): Promise<{ user: User; family: Family; familyCreated: boolean }> {
    const problems = newUserProblems(input);
    if (problems.length) throw ApiError.validation(problems);
    const email = normalizeEmail(input.email);
    const currency = input.currency?.toUpperCase();
    const passwordHash = input.password ? await hash(input.password) : null;
    return this.transactions.run(async (tx) => {
      if (input.onlyWhenNoUsers) {
        await this.users.lockSetup(tx);
        if (await this.users.any(tx)) {
          throw new ApiError(409, 'already_set_up', 'This instance already has users; sign in instead.');
        }
      }
      if (await this.users.existsWithEmail(email, tx)) {
        throw ApiError.validation([`a user with e-mail ${email} already exists`]);
      }
      let family = input.familyId
        ? await this.families.findById(input.familyId, tx)
        : await this.families.findByName(input.familyName!.trim(), tx);
      const familyCreated = !family;
      if (!family) {
        if (input.familyId) throw ApiError.validation(['no family has that id']);
        family = await this.families.insert({ name: input.familyName!.trim(), currency: currency ?? 'USD' }, tx);
      } else if (currency && currency !== family.currency) {
        // Joining keeps the family's currency; saying nothing would leave the caller believing theirs was used.
        throw ApiError.validation([`family "${family.name}" already exists with currency ${family.currency}, not ${currency}; leave the currency out to join it`]);
      }
      const user = await this.users.insert({ email, role: input.role, passwordHash, familyId: family.id }, tx);
      return { user, family, familyCreated };
    });
  }

  async hasUsers(): Promise<boolean> {
    return this.users.any();
  }

  findWithFamily(id: string): Promise<User | null> {
    return this.users.findWithFamily(id);
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(normalizeEmail(email));
  }
}
