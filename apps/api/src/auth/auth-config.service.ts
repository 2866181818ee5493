import { Injectable } from '@nestjs/common';
import { SsoRepository } from '../sso/sso.repository';
import { UsersService } from '../users/users.service';
import type { SignInProviderDto } from './auth.dto';

/** What the sign-in page needs from the database: whether first-run setup is due, and the providers to offer. */
@Injectable()
export class AuthConfigService {
  constructor(
    private readonly users: UsersService,
    private readonly providers: SsoRepository,
  ) {}

  async setupRequired(): Promise<boolean> {
    return !(await this.users.hasUsers());
  }

  /** The enabled providers, for the sign-in page's buttons and the security page's "connect": public, so no more than a button needs. */
  async signInProviders(): Promise<SignInProviderDto[]> {
    return (await this.providers.listSignInProviders()).map(({ name, label, strategy }) => ({ name, label, strategy }));
  }
}
