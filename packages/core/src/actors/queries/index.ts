// The console's read model of actors: compiled ones from the registry beside dynamic rows.
export { describeTrigger, listActors, type ActorItem, type ExpectationItem } from "./list-actors";
