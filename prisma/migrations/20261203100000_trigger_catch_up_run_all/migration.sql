-- Cron catch-up `run_all` (issue 20): every window missed while no node ran a trigger fires once,
-- oldest first, up to the trigger's cap (Cloacina's policy of the same name). The cap lives in the
-- trigger's definition in code, like its rule, so only the allowed policy names change here.
ALTER TABLE "cyclium_triggers" DROP CONSTRAINT "cyclium_triggers_catch_up_check";
ALTER TABLE "cyclium_triggers" ADD CONSTRAINT "cyclium_triggers_catch_up_check"
    CHECK ("catch_up" IN ('skip', 'latest', 'run_all'));
