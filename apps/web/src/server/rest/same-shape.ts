/**
 * `true` when each of A and B is assignable to the other. Wrapped in `TExpect<...>`, anything
 * else fails to compile: it keeps a zod schema of an answer (the OpenAPI document's) and the type
 * core returns from drifting apart unnoticed.
 */
export type TSameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type TExpect<T extends true> = T;
