-- Interval schedules (issue 20, Cyclium's "every N seconds" beside cron): a trigger of kind
-- 'interval' fires windows on a grid of multiples of its interval since the epoch, claimed once
-- per cluster like a cron window. Its interval is the row's period, kept in `poll_interval_ms`
-- (for a poll trigger the same column is how often the poll runs), so only the kinds change.
ALTER TABLE "cyclium_triggers" DROP CONSTRAINT "cyclium_triggers_kind_check";
ALTER TABLE "cyclium_triggers" ADD CONSTRAINT "cyclium_triggers_kind_check"
    CHECK ("kind" IN ('cron', 'interval', 'poll'));
