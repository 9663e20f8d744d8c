-- CreateTable
CREATE TABLE "PullRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "baseRepoId" INTEGER NOT NULL,
    "headRepoId" INTEGER NOT NULL,
    "headBranch" TEXT NOT NULL,
    "baseBranch" TEXT NOT NULL,
    "mergeBase" TEXT NOT NULL DEFAULT '',
    "headCommitId" TEXT NOT NULL DEFAULT '',
    "hasMerged" BOOLEAN NOT NULL DEFAULT false,
    "mergedAt" DATETIME,
    "mergedById" INTEGER NOT NULL DEFAULT 0,
    "mergedCommitId" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "IssueMention" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "Review" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" INTEGER NOT NULL,
    "reviewerId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_IssueLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issueId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,
    CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IssueLabel_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_IssueLabel" ("id", "issueId", "labelId") SELECT "id", "issueId", "labelId" FROM "IssueLabel";
DROP TABLE "IssueLabel";
ALTER TABLE "new_IssueLabel" RENAME TO "IssueLabel";
CREATE INDEX "IssueLabel_labelId_idx" ON "IssueLabel"("labelId");
CREATE UNIQUE INDEX "IssueLabel_issueId_labelId_key" ON "IssueLabel"("issueId", "labelId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "PullRequest_issueId_key" ON "PullRequest"("issueId");

-- CreateIndex
CREATE INDEX "PullRequest_baseRepoId_headBranch_baseBranch_idx" ON "PullRequest"("baseRepoId", "headBranch", "baseBranch");

-- CreateIndex
CREATE INDEX "IssueMention_userId_idx" ON "IssueMention"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueMention_issueId_userId_key" ON "IssueMention"("issueId", "userId");

-- CreateIndex
CREATE INDEX "Review_issueId_idx" ON "Review"("issueId");

-- CreateIndex
CREATE INDEX "Review_reviewerId_type_idx" ON "Review"("reviewerId", "type");

-- CreateIndex
CREATE INDEX "Comment_posterId_idx" ON "Comment"("posterId");

-- CreateIndex
CREATE INDEX "Issue_isClosed_createdAt_idx" ON "Issue"("isClosed", "createdAt");

-- CreateIndex
CREATE INDEX "IssueWatch_issueId_idx" ON "IssueWatch"("issueId");

-- CreateIndex
CREATE INDEX "Label_name_idx" ON "Label"("name");

-- CreateIndex
CREATE INDEX "Notification_userId_updatedAt_idx" ON "Notification"("userId", "updatedAt");

-- CreateIndex
CREATE INDEX "Notification_issueId_idx" ON "Notification"("issueId");
