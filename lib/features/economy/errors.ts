import { defineErrors } from "../../kernel/errors";

// Error codes of economy (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts): the NFT mint queue.
export const errors = defineErrors({
  WALLET_NOT_LINKED: { status: 409, description: "Link a wallet first (PUT /api/v1/nfts/wallet): mints go to the caller's linked wallet." },
  ITEM_LISTED: { status: 409, description: "The collectible is listed on the marketplace: cancel the listing before minting it." },
});
