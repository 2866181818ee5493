import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Family } from './entities/family.entity';

@Injectable()
export class FamiliesRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(familyId: string): Promise<Family | null> {
    return this.dataSource.getRepository(Family).findOneBy({ id: familyId });
  }

  async update(familyId: string, changes: Partial<Family>): Promise<Family | null> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(defined).length) await this.dataSource.getRepository(Family).update({ id: familyId }, defined);
    return this.findById(familyId);
  }
}
