// The console's read models of workflows: instances of an env (keyset list), one instance, and
// its step graph drawn from this process's registry.
export {
  getWorkflowGraph,
  type WorkflowGraphNode,
  type WorkflowInstanceGraph,
} from "./get-workflow-graph";
export {
  getWorkflowInstance,
  listWorkflowInstances,
  readStepStates,
  toWorkflowInstanceItem,
  type WorkflowInstanceFilters,
  type WorkflowInstanceItem,
  type WorkflowStepItem,
} from "./list-workflow-instances";
