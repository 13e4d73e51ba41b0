-- CreateIndex
CREATE INDEX "payment_events_received_at_idx" ON "payment_events"("received_at");
