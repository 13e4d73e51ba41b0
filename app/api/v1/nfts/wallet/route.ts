import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { linkedWalletResponse, linkWalletBody } from "@/lib/features/economy/schemas";
import { getLinkedWallet, linkWallet } from "@/lib/features/economy/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My linked wallet",
      description: "The wallet NFTs are minted to, or nulls when none is linked.",
      tags: ["NFTs"],
      auth: "bearer",
      response: linkedWalletResponse,
    },
    ({ user }) => getLinkedWallet(db, user.id),
  ),
  PUT: route(
    {
      summary: "Link my wallet",
      description:
        "Links (or replaces) the wallet mints go to: the `address` the wallet app returned through GET /api/mobile/wallet-callback (`#wallet=0x…`), which stores nothing itself. Stored lower-case. Mints already queued keep the address they were requested with.",
      tags: ["NFTs"],
      auth: "bearer",
      body: linkWalletBody,
      rateLimit: "write",
      response: linkedWalletResponse,
    },
    ({ user, body }) => linkWallet(db, user.id, body.address),
  ),
  DELETE: route(
    {
      summary: "Unlink my wallet",
      description: "Removes the linked wallet; new mint requests are refused (409 WALLET_NOT_LINKED) until one is linked again.",
      tags: ["NFTs"],
      auth: "bearer",
      rateLimit: "write",
      response: linkedWalletResponse,
    },
    ({ user }) => linkWallet(db, user.id, null),
  ),
});
