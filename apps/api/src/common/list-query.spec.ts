import { IsIn, IsOptional } from 'class-validator';
import { ApiError } from './api-error';
import { ListQuery, ListQueryPipe, NoQueryParams } from './list-query';
import { PageParam } from './paging';

class PagedQuery {
  @PageParam() page?: number;
}

class ColourQuery extends PagedQuery {
  @IsOptional() @IsIn(['red', 'blue']) colour?: string;
}

const pipe = new ListQueryPipe();
const read = (query: Record<string, unknown>, metatype: new () => object) => pipe.transform(query, { type: 'custom', metatype });
const refusal = async (query: Record<string, unknown>, metatype: new () => object) => {
  const error = await read(query, metatype).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).body();
};

describe('ListQueryPipe', () => {
  it('validates and transforms the parameters a list declares, its own and inherited ones, as @Query() does', async () => {
    const query = await read({ colour: 'red', page: '2' }, ColourQuery);
    expect(query).toBeInstanceOf(ColourQuery);
    expect(query).toMatchObject({ colour: 'red', page: 2 });
  });

  it('refuses each parameter the list does not declare, naming the ones it takes', async () => {
    expect(await refusal({ color: 'red', page: '1', sort: 'name' }, ColourQuery)).toEqual({
      error: 'validation_failed',
      message: 'unknown query parameter color; this list takes colour, page',
      errors: ['unknown query parameter color; this list takes colour, page', 'unknown query parameter sort; this list takes colour, page'],
    });
    expect((await refusal({ ['__proto__']: 'x' }, ColourQuery)).errors).toEqual(['unknown query parameter __proto__; this list takes colour, page']);
  });

  it('names at most ten unknown parameters, each cut to 100 characters, and counts the rest', async () => {
    const query = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}${'x'.repeat(i ? 0 : 500)}`, '1']));
    const errors = (await refusal(query, ColourQuery)).errors ?? [];
    expect(errors).toHaveLength(11);
    expect(errors[0]).toBe(`unknown query parameter k0${'x'.repeat(98)}…; this list takes colour, page`);
    expect(errors[9]).toBe('unknown query parameter k9; this list takes colour, page');
    expect(errors[10]).toBe('and 990 more unknown query parameters');
  });

  it('refuses any parameter of a list that takes none', async () => {
    expect((await refusal({ page: '2' }, NoQueryParams)).errors).toEqual(['unknown query parameter page; this list takes none']);
    await expect(read({}, NoQueryParams)).resolves.toBeInstanceOf(NoQueryParams);
  });

  it('reports a bad value of a declared parameter as the global pipe does', async () => {
    expect((await refusal({ page: '0', colour: 'green' }, ColourQuery)).errors).toEqual([
      'colour must be one of the following values: red, blue',
      'page must be an integer from 1 to 1000000',
    ]);
  });
});

describe('@ListQuery()', () => {
  it('needs a DTO class as the parameter type, when the controller is declared', () => {
    const untyped = () => {
      class Controller {
        list(@ListQuery() _query: Record<string, unknown>) {}
      }
      return Controller;
    };
    expect(untyped).toThrow('@ListQuery() of list needs a DTO class as its type');
  });

  it('needs the DTO to document exactly the parameters it takes, so that OpenAPI shows what is accepted', () => {
    class UndocumentedQuery {
      @IsOptional() colour?: string;
    }
    const undocumented = () => {
      class Controller {
        list(@ListQuery() _query: UndocumentedQuery) {}
      }
      return Controller;
    };
    expect(undocumented).toThrow('UndocumentedQuery documents nothing but takes colour');
  });
});
