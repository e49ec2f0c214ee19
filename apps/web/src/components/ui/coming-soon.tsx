import { getConsolePage, type TConsolePageId } from "@/components/shell/console-pages";
import { NavIcon } from "@/components/shell/nav-icon";
import { PageHeader } from "./page-header";

/** Placeholder for a console page whose issue has not landed yet: says what it will show. */
export function ComingSoon({ page: pageId }: { page: TConsolePageId }) {
  const page = getConsolePage(pageId);
  return (
    <>
      <PageHeader title={page.label} summary={page.summary} />
      <section className="panel coming-soon" data-testid="coming-soon">
        <div className="coming-soon-icon" aria-hidden="true">
          <NavIcon page={page.id} />
        </div>
        <div>
          <div className="coming-soon-title">
            This page is being built <span className="pill pill-muted">Coming soon</span>
          </div>
          <p className="coming-soon-lead">When it lands, this page will show:</p>
          <ul className="coming-soon-list">
            {page.planned.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
