-- CreateTable
CREATE TABLE "PackageTag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "packageId" INTEGER NOT NULL,
    "versionId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PackageTag_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "Package" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PackageTag_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PackageVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PackageTag_versionId_idx" ON "PackageTag"("versionId");

-- CreateIndex
CREATE UNIQUE INDEX "PackageTag_packageId_name_key" ON "PackageTag"("packageId", "name");
