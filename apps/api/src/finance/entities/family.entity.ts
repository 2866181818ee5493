import { Check, Column, Entity } from 'typeorm';
import { CreatedAt, PrimaryUuid, UpdatedAt, currencyCode } from '../../database/columns';

/** A household: the unit every piece of financial data belongs to. */
@Entity('families')
@Check('families_month_start_day_range', '"month_start_day" BETWEEN 1 AND 28')
export class Family {
  @PrimaryUuid() id: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column(currencyCode({ default: 'USD' })) currency: string;
  @Column({ type: 'varchar', length: 20, default: 'en' }) locale: string;
  @Column({ type: 'varchar', length: 20, default: '%m-%d-%Y' }) dateFormat: string;
  @Column({ type: 'varchar', length: 2, default: 'US' }) country: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) timezone: string | null;
  @Column({ type: 'smallint', default: 1 }) monthStartDay: number;
  /** Bumped on every entry write; lets caches of computed figures know they are stale. */
  @Column({ type: 'bigint', default: 0 }) dataVersion: string;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
