import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Family } from '../finance/entities/family.entity';
import { User } from '../users/user.entity';
import { managerOf, Transaction } from '../database/transactions';

/**
 * The user and family rows SSO sign-in reads, and creates for a JIT account. The tables belong to users/ and finance/;
 * these statements stay here until those folders' repositories offer them.
 */
@Injectable()
export class SsoAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  findUser(id: string, tx?: Transaction): Promise<User | null> {
    return managerOf(tx, this.dataSource).getRepository(User).findOneBy({ id });
  }

  /** The user, which the caller knows exists (its row is locked or referenced in this transaction). */
  getUser(id: string, tx: Transaction): Promise<User> {
    return managerOf(tx, this.dataSource).getRepository(User).findOneByOrFail({ id });
  }

  /** `email` as stored: lower case. */
  findUserByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ email });
  }

  /** The id of the account with this e-mail, reading nothing else. */
  async findUserIdByEmail(email: string): Promise<string | null> {
    return (await this.dataSource.getRepository(User).findOne({ where: { email }, select: { id: true } }))?.id ?? null;
  }

  createFamily(name: string, tx: Transaction): Promise<Family> {
    const families = managerOf(tx, this.dataSource).getRepository(Family);
    return families.save(families.create({ name }));
  }

  createUser(values: Pick<User, 'email' | 'role' | 'familyId' | 'firstName' | 'lastName' | 'passwordHash'>, tx: Transaction): Promise<User> {
    const users = managerOf(tx, this.dataSource).getRepository(User);
    return users.save(users.create(values));
  }
}
