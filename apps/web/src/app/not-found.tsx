import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";

export default function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" summary="There is no console page at this address." />
      <div className="panel panel-padded">
        <Link href="/" className="button">
          Back to the overview
        </Link>
      </div>
    </>
  );
}
