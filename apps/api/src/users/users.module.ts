import { Module } from '@nestjs/common';
import { FinanceModule } from '../finance/finance.module';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { IdentityBlocksController } from './identity-blocks.controller';
import { IdentityBlocksRepository } from './identity-blocks.repository';
import { IdentityBlocksService } from './identity-blocks.service';
import { RoleChangesService } from './role-changes.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [FinanceModule],
  controllers: [AdminUsersController, IdentityBlocksController],
  providers: [UsersService, UsersRepository, AdminUsersRepository, AdminUsersService, RoleChangesService, IdentityBlocksRepository, IdentityBlocksService],
  // AdminUsersService, RoleChangesService: SSO's "sync roles" manages users under the same rules, and a sign-in's role
  // sync changes roles the one way. IdentityBlocksRepository: the blocks written by a removal are read by SSO sign-in.
  // UsersRepository: sign-in and password reset read and write the users they authenticate.
  exports: [UsersService, UsersRepository, AdminUsersService, RoleChangesService, IdentityBlocksRepository],
})
export class UsersModule {}
