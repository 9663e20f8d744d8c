-- CreateIndex
CREATE INDEX "Comment_issueId_type_posterId_idx" ON "Comment"("issueId", "type", "posterId");
