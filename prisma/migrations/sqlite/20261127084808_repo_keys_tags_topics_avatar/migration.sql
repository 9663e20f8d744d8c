-- CreateTable
CREATE TABLE "DeployKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "keyId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "mode" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DeployKey_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "PublicKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeployKey_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProtectedTag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "namePattern" TEXT NOT NULL,
    "allowlistUserIds" TEXT NOT NULL DEFAULT '[]',
    "allowlistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProtectedTag_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PublicKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "keyType" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PublicKey_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PublicKey" ("content", "createdAt", "fingerprint", "id", "keyType", "name", "ownerId", "updatedAt") SELECT "content", "createdAt", "fingerprint", "id", "keyType", "name", "ownerId", "updatedAt" FROM "PublicKey";
DROP TABLE "PublicKey";
ALTER TABLE "new_PublicKey" RENAME TO "PublicKey";
CREATE UNIQUE INDEX "PublicKey_fingerprint_key" ON "PublicKey"("fingerprint");
CREATE INDEX "PublicKey_ownerId_idx" ON "PublicKey"("ownerId");
CREATE TABLE "new_Repository" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "ownerName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "originalUrl" TEXT NOT NULL DEFAULT '',
    "defaultBranch" TEXT NOT NULL DEFAULT 'main',
    "topics" TEXT NOT NULL DEFAULT '[]',
    "avatar" TEXT NOT NULL DEFAULT '',
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "isEmpty" BOOLEAN NOT NULL DEFAULT true,
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "isMirror" BOOLEAN NOT NULL DEFAULT false,
    "isTemplate" BOOLEAN NOT NULL DEFAULT false,
    "isFork" BOOLEAN NOT NULL DEFAULT false,
    "forkId" INTEGER NOT NULL DEFAULT 0,
    "size" BIGINT NOT NULL DEFAULT 0,
    "gitSize" BIGINT NOT NULL DEFAULT 0,
    "lfsSize" BIGINT NOT NULL DEFAULT 0,
    "numStars" INTEGER NOT NULL DEFAULT 0,
    "numForks" INTEGER NOT NULL DEFAULT 0,
    "numWatches" INTEGER NOT NULL DEFAULT 0,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "numPulls" INTEGER NOT NULL DEFAULT 0,
    "numClosedPulls" INTEGER NOT NULL DEFAULT 0,
    "settings" TEXT NOT NULL DEFAULT '{}',
    "archivedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Repository_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Repository" ("archivedAt", "createdAt", "defaultBranch", "description", "forkId", "gitSize", "id", "isArchived", "isEmpty", "isFork", "isMirror", "isPrivate", "isTemplate", "lfsSize", "lowerName", "name", "numClosedIssues", "numClosedPulls", "numForks", "numIssues", "numPulls", "numStars", "numWatches", "originalUrl", "ownerId", "ownerName", "settings", "size", "topics", "updatedAt", "website") SELECT "archivedAt", "createdAt", "defaultBranch", "description", "forkId", "gitSize", "id", "isArchived", "isEmpty", "isFork", "isMirror", "isPrivate", "isTemplate", "lfsSize", "lowerName", "name", "numClosedIssues", "numClosedPulls", "numForks", "numIssues", "numPulls", "numStars", "numWatches", "originalUrl", "ownerId", "ownerName", "settings", "size", "topics", "updatedAt", "website" FROM "Repository";
DROP TABLE "Repository";
ALTER TABLE "new_Repository" RENAME TO "Repository";
CREATE INDEX "Repository_lowerName_idx" ON "Repository"("lowerName");
CREATE INDEX "Repository_isPrivate_ownerId_idx" ON "Repository"("isPrivate", "ownerId");
CREATE UNIQUE INDEX "Repository_ownerId_lowerName_key" ON "Repository"("ownerId", "lowerName");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "DeployKey_keyId_repoId_key" ON "DeployKey"("keyId", "repoId");

-- CreateIndex
CREATE UNIQUE INDEX "DeployKey_repoId_name_key" ON "DeployKey"("repoId", "name");

-- CreateIndex
CREATE INDEX "ProtectedTag_repoId_idx" ON "ProtectedTag"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_name_key" ON "Topic"("name");
