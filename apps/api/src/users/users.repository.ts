import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';
import { User } from './user.entity';

/** The users table as sign-in, password reset and user creation read and write it (user management: AdminUsersRepository). */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Serializes first-run setup: held to the end of the transaction, so two setups cannot both find no user. */
  async lockSetup(tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.setup]);
  }

  any(tx?: Transaction): Promise<boolean> {
    return managerOf(tx, this.dataSource).getRepository(User).exists({});
  }

  existsWithEmail(email: string, tx?: Transaction): Promise<boolean> {
    return managerOf(tx, this.dataSource).getRepository(User).exists({ where: { email } });
  }

  findById(id: string, tx?: Transaction): Promise<User | null> {
    return managerOf(tx, this.dataSource).getRepository(User).findOneBy({ id });
  }

  /** The user, or a TypeORM EntityNotFoundError (a 500) when there is none. */
  findByIdOrFail(id: string): Promise<User> {
    return this.dataSource.getRepository(User).findOneByOrFail({ id });
  }

  /** `email` as stored: already normalized by the caller. */
  findByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ email });
  }

  findWithFamily(id: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOne({ where: { id }, relations: { family: true } });
  }

  insert(user: Pick<User, 'email' | 'role' | 'passwordHash' | 'familyId'>, tx: Transaction): Promise<User> {
    const users = managerOf(tx, this.dataSource).getRepository(User);
    return users.save(users.create(user));
  }

  async setPasswordHash(id: string, passwordHash: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(User).update({ id }, { passwordHash });
  }

  async recordLogin(id: string, at: Date, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(User).update({ id }, { lastLoginAt: at });
  }
}
