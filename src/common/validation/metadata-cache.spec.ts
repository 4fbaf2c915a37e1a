import { getMetadataStorage, IsInt, IsString, MetadataStorage, validateSync } from 'class-validator';
import { AuditQueryDto } from '../../audit/dto/audit.dto';
import { cacheValidationMetadata } from './metadata-cache';

class Named {
  @IsString()
  name!: string;
}

class Counted extends Named {
  @IsInt()
  count!: number;
}

const storage = getMetadataStorage();
const uncached = (target: new () => object, groups?: string[]) =>
  MetadataStorage.prototype.getTargetValidationMetadatas.call(storage, target, '', false, false, groups);

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it.each([
    ['a class', Named],
    ['a subclass, with its ancestor rules', Counted],
    ['an intersection of DTOs', AuditQueryDto],
  ])('answers for %s as class-validator does, once', (_name, target) => {
    const first = storage.getTargetValidationMetadatas(target, '', false, false);
    expect(first).toEqual(uncached(target));
    expect(first.length).toBeGreaterThan(0);
    expect(storage.getTargetValidationMetadatas(target, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(storage.groupByPropertyName(first)).toEqual(MetadataStorage.prototype.groupByPropertyName(first));
  });

  it('keeps separate answers per class and per options', () => {
    const named = storage.getTargetValidationMetadatas(Named, '', false, false);
    const counted = storage.getTargetValidationMetadatas(Counted, '', false, false);
    expect(counted.map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
    expect(named.map((rule) => rule.propertyName)).toEqual(['name']);
    expect(storage.getTargetValidationMetadatas(Named, '', false, false, ['admin'])).not.toBe(named);
    expect(storage.getTargetValidationMetadatas(Named, '', true, false)).not.toBe(named);
  });

  it('is installed once however often it is called', () => {
    const lookup = storage.getTargetValidationMetadatas;
    const grouping = storage.groupByPropertyName;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(lookup);
    expect(storage.groupByPropertyName).toBe(grouping);
  });

  it('still finds every broken rule, in subclasses too', () => {
    const invalid = Object.assign(new Counted(), { name: 7, count: 'many' });
    const broken = (object: object) =>
      validateSync(object).map((error) => [error.property, Object.keys(error.constraints ?? {})]);
    expect(broken(invalid)).toEqual([
      ['count', ['isInt']],
      ['name', ['isString']],
    ]);
    expect(broken(invalid)).toEqual(broken(invalid));
  });
});
