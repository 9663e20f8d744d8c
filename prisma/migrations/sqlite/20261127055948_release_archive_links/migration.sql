-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Release" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "tagName" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "sha" TEXT NOT NULL DEFAULT '',
    "target" TEXT NOT NULL DEFAULT '',
    "note" TEXT NOT NULL DEFAULT '',
    "isDraft" BOOLEAN NOT NULL DEFAULT false,
    "isPrerelease" BOOLEAN NOT NULL DEFAULT false,
    "hideArchiveLinks" BOOLEAN NOT NULL DEFAULT false,
    "publisherId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Release" ("createdAt", "id", "isDraft", "isPrerelease", "note", "publisherId", "repoId", "sha", "tagName", "target", "title") SELECT "createdAt", "id", "isDraft", "isPrerelease", "note", "publisherId", "repoId", "sha", "tagName", "target", "title" FROM "Release";
DROP TABLE "Release";
ALTER TABLE "new_Release" RENAME TO "Release";
CREATE UNIQUE INDEX "Release_repoId_tagName_key" ON "Release"("repoId", "tagName");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
