-- CreateIndex
CREATE INDEX "Comment_issueId_type_id_idx" ON "Comment"("issueId", "type", "id");
