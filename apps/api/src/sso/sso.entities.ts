import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Role, SsoStrategy } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid, UpdatedAt } from '../database/columns';
import { User } from '../users/user.entity';

/** An identity provider. Secrets and private keys are stored encrypted (AES-256-GCM envelopes). */
@Entity('sso_providers')
@Check('sso_providers_strategy_valid', `"strategy" IN ('openid_connect', 'oauth2', 'saml')`)
export class SsoProvider {
  @PrimaryUuid() id: string;
  /** Decides the callback path /auth/<name>/callback. */
  @Index({ unique: true }) @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 200 }) label: string;
  @Column({ type: 'varchar', length: 20 }) strategy: SsoStrategy;
  @Column({ type: 'boolean', default: false }) enabled: boolean;
  @Column({ type: 'varchar', length: 500, nullable: true }) issuer: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) clientId: string | null;
  @Column({ type: 'text', nullable: true }) clientSecretEncrypted: string | null;
  @Column({ type: 'varchar', length: 500, default: 'openid profile email' }) scopes: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) authorizationUrl: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) tokenUrl: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) userinfoUrl: string | null;
  @Column({ type: 'varchar', length: 30, default: 'client_secret_post' }) tokenAuthMethod: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) ssoUrl: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) idpEntityId: string | null;
  @Column({ type: 'text', nullable: true }) idpCertificate: string | null;
  @Column({ type: 'varchar', length: 100, default: 'groups' }) groupAttribute: string;
  @Column({ type: 'boolean', default: false }) signRequests: boolean;
  @Column({ type: 'text', nullable: true }) spPrivateKeyEncrypted: string | null;
  @Column({ type: 'text', nullable: true }) spCertificate: string | null;
  @Column({ type: 'varchar', length: 20, default: 'member' }) defaultRole: Role;
  /** Group mappings, attribute mappings, conditional roles and role hierarchy (SPEC 5.5). */
  @Column({ type: 'jsonb', default: () => `'{}'` }) roleMapping: Record<string, unknown>;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

@Entity('sso_identities')
@Index(['providerId', 'uid'], { unique: true })
export class SsoIdentity {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn() user?: User;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  /** The provider's subject (OIDC sub, SAML NameID). */
  @Column({ type: 'varchar', length: 500 }) uid: string;
  /** Issuer seen at link time; later logins must present the same one. */
  @Column({ type: 'varchar', length: 500, nullable: true }) issuer: string | null;
  @Column({ type: 'varchar', length: 320, nullable: true }) email: string | null;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @CreatedAt() createdAt: Date;
}
