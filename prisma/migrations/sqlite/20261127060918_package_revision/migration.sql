-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Package" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "semverCompatible" BOOLEAN NOT NULL DEFAULT false,
    "isInternal" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Package" ("id", "isInternal", "lowerName", "name", "ownerId", "repoId", "semverCompatible", "type") SELECT "id", "isInternal", "lowerName", "name", "ownerId", "repoId", "semverCompatible", "type" FROM "Package";
DROP TABLE "Package";
ALTER TABLE "new_Package" RENAME TO "Package";
CREATE UNIQUE INDEX "Package_ownerId_type_lowerName_key" ON "Package"("ownerId", "type", "lowerName");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
