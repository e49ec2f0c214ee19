// Public face of dynamic actors' definitions (rows of cyclium_agent_definitions): the schema
// shared with the loader, and the reads and writes the console and REST call.
export {
  ZAgentDefinitionChanges,
  ZAgentDefinitionInput,
  actorInputOf,
  parseAgentDefinition,
  type AgentDefinition,
  type StoredAgentDefinition,
  type TAgentDefinitionChanges,
  type TAgentDefinitionInput,
} from "./agent-definition";
export {
  AGENT_DEFINITIONS_CHANGED,
  publishAgentDefinitionChanged,
  type AgentDefinitionChangedPayload,
} from "./agent-definition-changed";
export {
  createAgentDefinition,
  type CreateAgentDefinitionOptions,
  type CreateAgentDefinitionResult,
} from "./create-agent-definition";
export {
  updateAgentDefinition,
  type UpdateAgentDefinitionOptions,
  type UpdateAgentDefinitionResult,
} from "./update-agent-definition";
export { getAgentDefinition, type GetAgentDefinitionOptions } from "./get-agent-definition";
export { listAgentDefinitions, type ListAgentDefinitionsOptions } from "./list-agent-definitions";
export {
  setAgentDefinitionEnabled,
  type SetAgentDefinitionEnabledOptions,
} from "./set-agent-definition-enabled";
// What live workers registered: a dynamic actor may only name one of these strategies.
export {
  listRegisteredStrategies,
  type ListRegisteredStrategiesOptions,
  type RegisteredStrategy,
} from "./list-registered-strategies";
