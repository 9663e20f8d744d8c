-- CreateTable
CREATE TABLE "PullAutoMerge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pullId" INTEGER NOT NULL,
    "doerId" INTEGER NOT NULL,
    "mergeStyle" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "deleteBranchAfterMerge" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "PullAutoMerge_pullId_key" ON "PullAutoMerge"("pullId");
