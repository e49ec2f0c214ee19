export { openClients } from "./open-clients";
export { spyQueryable, type QueryableSpy } from "./queryable-spy";
