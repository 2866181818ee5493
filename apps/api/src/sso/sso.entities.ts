import { Check, Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { Session } from '../auth/auth.entities';
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
  /** The IdP's SingleLogoutService (HTTP-Redirect); without it, signing out of Hearth leaves the IdP session open. */
  @Column({ type: 'varchar', length: 500, nullable: true }) sloUrl: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) idpEntityId: string | null;
  @Column({ type: 'text', nullable: true }) idpCertificate: string | null;
  @Column({ type: 'varchar', length: 100, default: 'groups' }) groupAttribute: string;
  @Column({ type: 'boolean', default: false }) signRequests: boolean;
  @Column({ type: 'text', nullable: true }) spPrivateKeyEncrypted: string | null;
  @Column({ type: 'text', nullable: true }) spCertificate: string | null;
  @Column({ type: 'varchar', length: 20, default: 'member' }) defaultRole: Role;
  /** Group mappings, attribute mappings, conditional roles and role hierarchy (docs/sso.md#role-mapping). */
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
  /**
   * The groups the provider sent at the last sign-in ([] when it sent none), so an administrator can re-apply a changed
   * mapping without a login. Null: no sign-in since groups were first stored.
   */
  @Column({ type: 'jsonb', nullable: true }) groups: string[] | null;
  @Column({ type: 'timestamptz', nullable: true }) groupsReceivedAt: Date | null;
  /**
   * The role the provider's mapping gave at the last sync, null when the provider had no mapping then (or an emptied
   * mapping has since taken it back). It is what lets a sync remove a role whose mapping is gone.
   */
  @Column({ type: 'varchar', length: 20, nullable: true }) mappedRole: Role | null;
  @CreatedAt() createdAt: Date;
}

/**
 * One sign-in attempt between the redirect to the provider and its callback: state, nonce and PKCE verifier kept on
 * the server, bound to the browser that started it (hash of the transaction cookie), single use. After a callback
 * that needs the local password to link an existing account, the same row carries the verified identity until then.
 */
@Entity('sso_login_states')
export class SsoLoginState {
  @PrimaryUuid() id: string;
  /** SHA-256 of the `state` parameter. */
  @Index({ unique: true }) @Column({ type: 'char', length: 64 }) stateHash: string;
  /** SHA-256 of the transaction cookie of the browser that started the sign-in. */
  @Column({ type: 'char', length: 64 }) browserHash: string;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  /** `login`, `connect` (a signed-in user adds a provider) or `link` (waiting for the local password). */
  @Column({ type: 'varchar', length: 20 }) purpose: string;
  @Column({ type: 'uuid', nullable: true }) userId: string | null;
  @Column({ type: 'text' }) codeVerifierEncrypted: string;
  @Column({ type: 'varchar', length: 100 }) nonce: string;
  @Column({ type: 'varchar', length: 600 }) redirectUri: string;
  /** The verified identity awaiting the password of the account it will be linked to (purpose `link`). */
  @Column({ type: 'jsonb', nullable: true }) pendingLink: Record<string, unknown> | null;
  @Index() @Column({ type: 'timestamptz' }) expiresAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) consumedAt: Date | null;
  @CreatedAt() createdAt: Date;
}

/**
 * The provider session behind a browser session, for RP-initiated logout: the OIDC ID token (the id_token_hint), or
 * the SAML NameID and SessionIndex a LogoutRequest names.
 */
@Entity('sso_sessions')
export class SsoSession {
  @PrimaryColumn({ type: 'uuid' }) sessionId: string;
  @OneToOne(() => Session, { onDelete: 'CASCADE' }) @JoinColumn() session?: Session;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  @Column({ type: 'text', nullable: true }) idTokenEncrypted: string | null;
  /** The assertion's NameID (SamlNameId as JSON), encrypted: personal data, and often the user's e-mail address. */
  @Column({ type: 'text', nullable: true }) samlNameIdEncrypted: string | null;
  @Column({ type: 'text', nullable: true }) samlSessionIndex: string | null;
  @CreatedAt() createdAt: Date;
}

/**
 * An SSO identity of a permanently removed user: it can neither sign in, be linked nor create an account until a
 * super admin allows it again. The subject is kept only as a keyed digest; the label (the removed user's e-mail,
 * for the admin list) is encrypted. Deleting the provider drops its blocks, as it drops its identities.
 */
@Entity('sso_identity_blocks')
@Index(['providerId', 'uidDigest'], { unique: true })
export class SsoIdentityBlock {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  /** HMAC-SHA256 (hex) of the provider's subject under a key derived from SECRET_KEY_BASE. */
  @Column({ type: 'char', length: 64 }) uidDigest: string;
  @Column({ type: 'text' }) identityLabelEncrypted: string;
  @CreatedAt() createdAt: Date;
}
