import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../database/columns';
import { SsoProvider } from './sso.entities';

/**
 * An AuthnRequest or LogoutRequest we sent, kept until the IdP answers it (node-saml's InResponseTo cache, in the
 * database because the IdP's POST is cross-site and carries no cookie of ours). Single use and short-lived; an
 * AuthnRequest also carries what the OIDC transaction row carries: the browser that started the sign-in and its purpose.
 */
@Entity('saml_requests')
@Check('saml_requests_browser_bound', `("purpose" = 'logout') = ("browser_hash" IS NULL)`)
export class SamlRequest {
  /** The request's ID, which the answer must name in InResponseTo. */
  @PrimaryColumn({ type: 'varchar', length: 100 }) id: string;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  /**
   * SHA-256 of the transaction cookie of the browser that started the sign-in (for a later link page). Null for a
   * LogoutRequest: its answer only sends the browser to the sign-in page, and may come as a cross-site POST.
   */
  @Column({ type: 'char', length: 64, nullable: true }) browserHash: string | null;
  /** `login`, `connect` (a signed-in user adds the provider), `test` (a super admin's test login) or `logout`. */
  @Column({ type: 'varchar', length: 20 }) purpose: string;
  /** Who signed in (connect, test) or out (logout); null for a new sign-in. */
  @Column({ type: 'uuid', nullable: true }) userId: string | null;
  /** The request's IssueInstant, the value node-saml stores and reads back. */
  @Column({ type: 'varchar', length: 40 }) issueInstant: string;
  @Index() @Column({ type: 'timestamptz' }) expiresAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) consumedAt: Date | null;
  @CreatedAt() createdAt: Date;
}

/** Assertion IDs already accepted, kept until the assertion expires, so a captured assertion is never accepted twice. */
@Entity('saml_assertions')
export class SamlAssertion {
  @PrimaryColumn({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  @PrimaryColumn({ type: 'varchar', length: 200 }) assertionId: string;
  @Index() @Column({ type: 'timestamptz' }) expiresAt: Date;
  @CreatedAt() createdAt: Date;
}
