import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { IdentityBlocksController } from './identity-blocks.controller';
import { IdentityBlocksRepository } from './identity-blocks.repository';
import { IdentityBlocksService } from './identity-blocks.service';
import { UsersService } from './users.service';

@Module({
  controllers: [AdminUsersController, IdentityBlocksController],
  providers: [UsersService, AdminUsersRepository, AdminUsersService, IdentityBlocksRepository, IdentityBlocksService],
  // AdminUsersService: the SSO module's "sync roles" action manages users under the same rules. IdentityBlocksRepository:
  // the blocks written by a removal are read by SSO sign-in.
  exports: [UsersService, AdminUsersService, IdentityBlocksRepository],
})
export class UsersModule {}
