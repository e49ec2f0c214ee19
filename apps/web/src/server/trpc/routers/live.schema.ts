import { z } from "zod";
import { ZEnvInput } from "./shared.schema";

/** The env the page looks at (as every read takes it); hints of other envs are not sent. */
export const ZLiveEventsInput = z.object({ env: ZEnvInput }).optional();
export type TLiveEventsInput = z.infer<typeof ZLiveEventsInput>;
