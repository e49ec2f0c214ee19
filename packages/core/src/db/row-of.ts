/**
 * Row types derived from the Prisma models (`@cyclium/db/models`), so that a table's columns are
 * declared once, in prisma/schema.prisma (checked against the migrations by a test), instead of
 * again by hand in core.
 *
 * - `RowOf<Model>` is the row as the `pg` driver returns a `SELECT *`-style query: column names
 *   in snake_case (Prisma's field `actorId` is the column `actor_id`), BIGINT as a string (pg
 *   does not parse int8), JSON as `unknown` until a schema parses it.
 * - `Narrow<T, { … }>` replaces some fields' types by narrower ones (a VARCHAR status by its
 *   union); a key that is not a field of T is a compile error, so a renamed column cannot slip by.
 */

/** `actorId` -> `actor_id`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A Prisma field type as `pg` returns the column (distributes over `| null`). */
export type PgValue<V> = V extends bigint
  ? string
  : V extends Date
    ? Date
    : V extends readonly (infer E)[]
      ? PgValue<E>[]
      : JsonOrScalar<V>;

type JsonOrScalar<V> = V extends string | number | boolean | null ? V : unknown;

/** A model's fields as pg returns them, keyed by column name. */
export type RowOf<Model> = {
  [K in keyof Model & string as SnakeCase<K>]: PgValue<Model[K]>;
};

/** A model's fields in camelCase with pg's value types (BIGINT as string, JSON as unknown). */
export type FieldsOf<Model> = { [K in keyof Model]: PgValue<Model[K]> };

/** `T` with the fields named in `O` replaced by `O`'s types; unknown names do not compile. */
export type Narrow<T, O extends { [K in keyof O]: K extends keyof T ? unknown : never }> = Omit<
  T,
  keyof O
> &
  O;
