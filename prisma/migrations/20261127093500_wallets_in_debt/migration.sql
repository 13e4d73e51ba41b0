-- The console's frozen wallets (lib/payments/console.ts), largest debt first.
CREATE INDEX "wallets_in_debt" ON "wallets"("debt" DESC, "user_id");
