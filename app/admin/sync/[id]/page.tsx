import { notFound } from "next/navigation";
import { db } from "@/lib/db/client";
import { getSyncRun } from "@/lib/features/sync/queries";
import { requireStaff } from "../../_lib/gate";
import { RunDetail } from "../../_lib/run";

export default async function SyncRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireStaff(`/admin/sync/${encodeURIComponent(id)}`, "admin");
  const run = await getSyncRun(db, id);
  if (!run) notFound();
  return (
    <>
      <p>
        <a href="/admin/sync">← All sync runs</a>
      </p>
      <RunDetail run={run} headingLevel={1} />
    </>
  );
}
