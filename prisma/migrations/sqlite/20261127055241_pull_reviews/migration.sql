-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Review" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" INTEGER NOT NULL,
    "reviewerId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "commitId" TEXT NOT NULL DEFAULT '',
    "official" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Review" ("createdAt", "id", "issueId", "reviewerId", "type") SELECT "createdAt", "id", "issueId", "reviewerId", "type" FROM "Review";
DROP TABLE "Review";
ALTER TABLE "new_Review" RENAME TO "Review";
CREATE INDEX "Review_issueId_idx" ON "Review"("issueId");
CREATE INDEX "Review_reviewerId_type_idx" ON "Review"("reviewerId", "type");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
