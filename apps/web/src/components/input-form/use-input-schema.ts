"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/trpc-react-provider";

/**
 * The input schema of one expectation (its JSON schema, example and note), or undefined when the
 * deployment declares none. One request serves every form of the page (the same query key): the
 * deployment's schemas do not change while the console runs.
 */
export function useInputSchema(actorId: string, expectationId: string) {
  const trpc = useTRPC();
  const schemas = useQuery({ ...trpc.actors.inputSchemas.queryOptions(), staleTime: Infinity });
  return {
    isPending: schemas.isPending,
    schema: schemas.data?.find(
      (entry) => entry.actorId === actorId && entry.expectationId === expectationId,
    ),
  };
}
