import { findQuerySchema } from "@/lib/operations/admin/schemas";
import { findAnyone } from "@/lib/operations/admin/service";
import type { EntityHit } from "@/lib/operations/admin/queries";
import { db } from "@/lib/db/client";
import { requireStaff } from "../_lib/gate";
import { first, Notice, ScrollTable, styles, TableHead, when, type SearchParams } from "../_lib/ui";

// Find anyone: the console header's search box lands here. Fans by handle, name, e-mail, user id or external id
// (keyset pages); teams, posts, listings, collectibles, orders and trades by their exact id.

const KIND_LABEL: Record<EntityHit["kind"], string> = {
  team: "Teams",
  post: "Posts",
  listing: "Listings",
  collectible: "Collectibles",
  order: "Orders",
  trade: "Trades",
};
const SECTION_OF: Record<EntityHit["kind"], string> = {
  team: "teams",
  post: "profile",
  listing: "listings",
  collectible: "collectibles",
  order: "orders",
  trade: "trades",
};

function entityHref(e: EntityHit): string {
  if (e.kind === "team") return `/admin/teams?${new URLSearchParams({ q: e.extra ?? e.label })}`;
  return e.userId ? `/admin/users/${e.userId}#${SECTION_OF[e.kind]}` : "/admin";
}

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const raw = first(sp.q) ?? "";
  await requireStaff(`/admin/search?${new URLSearchParams({ q: raw })}`, "users");
  const parsed = findQuerySchema.safeParse(raw);
  if (!parsed.success) {
    return (
      <>
        <h1>Find anyone</h1>
        <Notice kind="error">Type a handle, name, e-mail or id (1-200 characters).</Notice>
      </>
    );
  }
  const q = parsed.data;
  const result = await findAnyone(db, q, first(sp.after));
  const kinds = [...new Set(result.entities.map((e) => e.kind))];

  return (
    <>
      <h1>Find anyone: “{q}”</h1>
      {result.cursorInvalid ? <Notice kind="error">That page link is no longer valid; showing the first page.</Notice> : null}
      <section aria-labelledby="found-fans">
        <h2 id="found-fans">Fans</h2>
        {result.fans.length ? (
          <ScrollTable label="Fans found">
            <TableHead columns={["Fan", "Name", "E-mail", "External id", "Joined"]} />
            <tbody>
              {result.fans.map((f) => (
                <tr key={f.id} data-user={f.id}>
                  <th scope="row" style={styles.rowHead}>
                    <a href={`/admin/users/${f.id}`}>{f.handle ? `@${f.handle}` : f.id}</a>
                  </th>
                  <td style={styles.td}>{f.displayName ?? "—"}</td>
                  <td style={styles.td}>{f.email ?? "—"}</td>
                  <td style={styles.td}>
                    <code>{f.externalId}</code>
                  </td>
                  <td style={styles.td}>{when(f.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        ) : (
          <p>No fan matches.</p>
        )}
        {result.nextCursor ? (
          <p>
            <a href={`/admin/search?${new URLSearchParams({ q, after: result.nextCursor })}`}>More fans</a>
          </p>
        ) : null}
      </section>
      {kinds.map((kind) => (
        <section key={kind} aria-labelledby={`found-${kind}`}>
          <h2 id={`found-${kind}`}>{KIND_LABEL[kind]}</h2>
          <ul>
            {result.entities
              .filter((e) => e.kind === kind)
              .map((e) => (
                <li key={`${e.kind}:${e.id}`}>
                  <a href={entityHref(e)}>
                    <code>{e.id}</code> {e.label}
                  </a>
                  {e.extra && e.kind !== "team" ? ` · ${e.extra}` : ""}
                </li>
              ))}
          </ul>
        </section>
      ))}
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 16 }}>
        Fans match by handle or name (similar spellings too), by e-mail (whole, or its beginning), by user id or external id. Teams match by id or slug; posts,
        listings, collectibles, orders and trades by their exact id.
      </p>
    </>
  );
}
