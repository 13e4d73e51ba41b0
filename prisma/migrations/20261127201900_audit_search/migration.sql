-- CreateIndex
CREATE INDEX "audit_log_target_type_id_idx" ON "audit_log"("target_type", "id" DESC);

-- The search's action prefix (action LIKE 'prefix%'), newest first.
CREATE INDEX "audit_log_action_prefix_idx" ON "audit_log"("action" text_pattern_ops, "id" DESC);
