-- CreateIndex
CREATE INDEX "Issue_createdAt_idx" ON "Issue"("createdAt");

-- CreateIndex
CREATE INDEX "Repository_ownerId_id_idx" ON "Repository"("ownerId", "id");
