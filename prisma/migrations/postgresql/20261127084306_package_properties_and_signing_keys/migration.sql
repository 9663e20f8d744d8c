-- CreateTable
CREATE TABLE "PackageProperty" (
    "id" SERIAL NOT NULL,
    "refType" INTEGER NOT NULL,
    "refId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "PackageProperty_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackageSigningKey" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PackageSigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PackageProperty_refType_refId_idx" ON "PackageProperty"("refType", "refId");

-- CreateIndex
CREATE INDEX "PackageProperty_refType_name_value_idx" ON "PackageProperty"("refType", "name", "value");

-- CreateIndex
CREATE UNIQUE INDEX "PackageSigningKey_ownerId_kind_key" ON "PackageSigningKey"("ownerId", "kind");
