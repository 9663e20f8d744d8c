-- Rows of repositories that no longer exist show nothing and would break the new foreign keys.
DELETE FROM "Notification" WHERE "repoId" NOT IN (SELECT "id" FROM "Repository");
DELETE FROM "Action" WHERE "repoId" NOT IN (SELECT "id" FROM "Repository");

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Action" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "opType" INTEGER NOT NULL,
    "actUserId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "refName" TEXT NOT NULL DEFAULT '',
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "content" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Action_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Action" ("actUserId", "commentId", "content", "createdAt", "id", "isDeleted", "isPrivate", "opType", "refName", "repoId", "userId") SELECT "actUserId", "commentId", "content", "createdAt", "id", "isDeleted", "isPrivate", "opType", "refName", "repoId", "userId" FROM "Action";
DROP TABLE "Action";
ALTER TABLE "new_Action" RENAME TO "Action";
CREATE INDEX "Action_userId_createdAt_idx" ON "Action"("userId", "createdAt");
CREATE INDEX "Action_repoId_createdAt_idx" ON "Action"("repoId", "createdAt");
CREATE INDEX "Action_actUserId_idx" ON "Action"("actUserId");
CREATE TABLE "new_Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 1,
    "source" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL DEFAULT 0,
    "commitId" TEXT NOT NULL DEFAULT '',
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "updatedBy" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Notification_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Notification" ("commentId", "commitId", "createdAt", "id", "issueId", "repoId", "source", "status", "updatedAt", "updatedBy", "userId") SELECT "commentId", "commitId", "createdAt", "id", "issueId", "repoId", "source", "status", "updatedAt", "updatedBy", "userId" FROM "Notification";
DROP TABLE "Notification";
ALTER TABLE "new_Notification" RENAME TO "Notification";
CREATE INDEX "Notification_userId_status_updatedAt_idx" ON "Notification"("userId", "status", "updatedAt");
CREATE INDEX "Notification_userId_updatedAt_idx" ON "Notification"("userId", "updatedAt");
CREATE INDEX "Notification_issueId_idx" ON "Notification"("issueId");
CREATE INDEX "Notification_repoId_idx" ON "Notification"("repoId");
CREATE UNIQUE INDEX "Notification_userId_issueId_source_key" ON "Notification"("userId", "issueId", "source");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
