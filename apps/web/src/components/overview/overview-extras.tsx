"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Icon } from "@/components/icons/icon";
import { EmptyState } from "@/components/ui/empty-state";
import { SectionHeader } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { EventChart } from "@/components/telemetry/event-chart";
import { useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

const CLAIM_EVENTS = [
  "cyclium.work_claims.steal",
  "cyclium.work_claims.renew_failed",
  "cyclium.work_claims.acquired",
  "cyclium.work_claims.busy",
] as const;

/** The Overview's lower half: active findings of the env and claim health with the seed's alerts. */
export function OverviewExtras() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const findings = useQuery({
    ...trpc.findings.activeSummary.queryOptions({ env }),
    refetchInterval: useRefetchInterval(5_000),
  });
  const claims = useQuery({
    ...trpc.telemetry.series.queryOptions({ events: [...CLAIM_EVENTS], minutes: 60 }),
    refetchInterval: useRefetchInterval(15_000, { pushed: false }),
  });
  return (
    <>
      <section className="section" aria-labelledby="findings-heading">
        <SectionHeader
          id="findings-heading"
          title={
            <>
              Active findings <span className="count-badge">{findings.data?.total ?? "…"}</span>
            </>
          }
          meta={
            <Link href="/findings" className="link-with-icon">
              All findings <Icon name="arrow-right" size={14} />
            </Link>
          }
        />
        {findings.data && findings.data.total === 0 ? (
          <EmptyState icon="flag" title="No active findings" testId="overview-findings-empty">
            Nothing raised by an episode is open in this env.
          </EmptyState>
        ) : (
          <div className="card">
            <ul className="findings-list" data-testid="overview-findings">
              {(findings.data?.latest ?? []).map((finding) => (
                <li key={finding.id}>
                  <StatusPill status={finding.severity} />
                  <div style={{ flex: 1 }}>
                    <div>{finding.summary ?? finding.class}</div>
                    <div className="note mono">{finding.findingKey}</div>
                  </div>
                  <span className="note">
                    raised {finding.raisedCount}× · <TimeAgo iso={finding.updatedAt} />
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <section className="section" aria-labelledby="claims-heading">
        <SectionHeader
          id="claims-heading"
          title="Work claims, last hour"
          meta={
            <Link href="/telemetry" className="link-with-icon">
              All telemetry <Icon name="arrow-right" size={14} />
            </Link>
          }
        />
        <div className="chart-grid chart-grid-4">
          {(claims.data?.series ?? []).map((series) => (
            <EventChart key={series.event} series={series} height={100} />
          ))}
        </div>
      </section>
    </>
  );
}
