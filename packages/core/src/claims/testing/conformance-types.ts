import type { ClaimState, WorkClaims } from "../work-claims";

/** A claim as the adapter's store holds it; `steals` when the store counts them. */
export interface InspectedClaim {
  state: ClaimState;
  attempt: number;
  steals?: number;
}

/** A case's adapter: `makeAdapter` is called once per case; its owners all share it. */
export type MakeAdapter = () => WorkClaims | Promise<WorkClaims>;
