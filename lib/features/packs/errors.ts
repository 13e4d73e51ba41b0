import { defineErrors } from "../../kernel/errors";

// Error codes of packs (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  PACK_NOT_FOR_SALE: { status: 409, description: "The pack cannot be bought now: outside its sale window, or the starter pack (granted, never sold)." },
  SOLD_OUT: { status: 409, description: "Every pack of this stock is sold." },
  STOCK_BELOW_SOLD: { status: 409, description: "A pack's stock cannot be set below the packs already sold." },
});
