import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { UsersService } from './users.service';

@Module({
  controllers: [AdminUsersController],
  providers: [UsersService, AdminUsersRepository, AdminUsersService],
  // AdminUsersService: the SSO module's "sync roles" action manages users under the same rules.
  exports: [UsersService, AdminUsersService],
})
export class UsersModule {}
