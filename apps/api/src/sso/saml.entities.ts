import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../database/columns';
import { SsoProvider } from './sso.entities';

/**
 * An AuthnRequest we sent, kept until the IdP answers it (node-saml's InResponseTo cache, in the database because
 * the IdP's POST to the ACS is cross-site and carries no cookie of ours). Single use and short-lived; it also carries
 * what the OIDC transaction row carries: the browser that started the sign-in and its purpose.
 */
@Entity('saml_requests')
export class SamlRequest {
  /** The AuthnRequest ID, which the response must name in InResponseTo. */
  @PrimaryColumn({ type: 'varchar', length: 100 }) id: string;
  @Column({ type: 'uuid' }) providerId: string;
  @ManyToOne(() => SsoProvider, { onDelete: 'CASCADE' }) @JoinColumn() provider?: SsoProvider;
  /** SHA-256 of the transaction cookie of the browser that started the sign-in (for a later link page). */
  @Column({ type: 'char', length: 64 }) browserHash: string;
  /** `login` or `connect` (a signed-in user adds the provider). */
  @Column({ type: 'varchar', length: 20 }) purpose: string;
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
