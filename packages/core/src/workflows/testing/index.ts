export { databaseStepStarter, type DatabaseStepStarter } from "./database-step-starter";
