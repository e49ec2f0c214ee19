import { MemoryWorkClaims } from "./memory-work-claims";
import { describeWorkClaimsConformance } from "./testing/index";

// The in-memory adapter on a clock the suite moves: no real waiting for leases to lapse.
let now = 0;
let current = new MemoryWorkClaims({ now: () => now });

describeWorkClaimsConformance(
  "memory",
  () => {
    current = new MemoryWorkClaims({ now: () => now });
    return current;
  },
  {
    advanceClock: (ms) => {
      now += ms;
    },
    inspect: (key) => {
      const claim = current.get(key);
      return Promise.resolve(
        claim && { state: claim.state, attempt: claim.attempt, steals: claim.steals },
      );
    },
  },
);
