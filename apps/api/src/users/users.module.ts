import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { IdentityBlocksController } from './identity-blocks.controller';
import { IdentityBlocksRepository } from './identity-blocks.repository';
import { IdentityBlocksService } from './identity-blocks.service';
import { RoleChangesService } from './role-changes.service';
import { UsersService } from './users.service';

@Module({
  controllers: [AdminUsersController, IdentityBlocksController],
  providers: [UsersService, AdminUsersRepository, AdminUsersService, RoleChangesService, IdentityBlocksRepository, IdentityBlocksService],
  // AdminUsersService, RoleChangesService: SSO's "sync roles" manages users under the same rules, and a sign-in's role
  // sync changes roles the one way. IdentityBlocksRepository: the blocks written by a removal are read by SSO sign-in.
  exports: [UsersService, AdminUsersService, RoleChangesService, IdentityBlocksRepository],
})
export class UsersModule {}
