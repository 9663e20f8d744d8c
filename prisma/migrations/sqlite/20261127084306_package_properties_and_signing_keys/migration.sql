-- CreateTable
CREATE TABLE "PackageProperty" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "refType" INTEGER NOT NULL,
    "refId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "PackageSigningKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "PackageProperty_refType_refId_idx" ON "PackageProperty"("refType", "refId");

-- CreateIndex
CREATE INDEX "PackageProperty_refType_name_value_idx" ON "PackageProperty"("refType", "name", "value");

-- CreateIndex
CREATE UNIQUE INDEX "PackageSigningKey_ownerId_kind_key" ON "PackageSigningKey"("ownerId", "kind");
