import { is, Param, Placeholder, SQL, StringChunk, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { statementName } from './client';

const dialect = new PgDialect();

/** Reads a value of the statement by its name: `sql`${value('buyerId')}``. */
export type PrebuiltValue = (name: string) => SQL;

/**
 * A statement every purchase runs, built once: `build` is called a single time with `value(name)`
 * marking where each value goes, and the text it makes is kept, cut at its parameters. Each run only
 * fills in the values (a flat list, nothing built again), and the text, which never changes, carries
 * its name (`statementName`), so PostgreSQL parses it once per connection. Building the purchase's
 * statements again for every purchase was most of its cost in Node (issue 30, the purchase bench).
 */
export function prebuilt(name: string, build: (value: PrebuiltValue) => SQL): (values: Record<string, unknown>) => SQL {
  let built: { pieces: string[]; params: unknown[] } | null = null;
  return (values) => {
    if (built === null) {
      const { sql: text, params } = dialect.sqlToQuery(build((key) => sql`${sql.placeholder(key)}`));
      const pieces = text.split(/\$\d+\b/);
      if (pieces.length !== params.length + 1) throw new Error(`The statement '${name}' has a '$' that is not one of its parameters.`);
      pieces[0] = `${statementName(name)}${pieces[0]}`;
      built = { pieces, params };
    }
    const { pieces, params } = built;
    const chunks: (StringChunk | Param)[] = [new StringChunk(pieces[0]!)];
    params.forEach((param, i) => {
      let value = param;
      if (is(param, Placeholder)) {
        if (!(param.name in values)) throw new Error(`The statement '${name}' reads a value it was not given: ${param.name}.`);
        value = values[param.name];
      }
      chunks.push(new Param(value), new StringChunk(pieces[i + 1]!));
    });
    return new SQL(chunks);
  };
}
