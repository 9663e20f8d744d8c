-- CreateTable
CREATE TABLE "PackageTag" (
    "id" SERIAL NOT NULL,
    "packageId" INTEGER NOT NULL,
    "versionId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PackageTag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PackageTag_versionId_idx" ON "PackageTag"("versionId");

-- CreateIndex
CREATE UNIQUE INDEX "PackageTag_packageId_name_key" ON "PackageTag"("packageId", "name");

-- AddForeignKey
ALTER TABLE "PackageTag" ADD CONSTRAINT "PackageTag_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "Package"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackageTag" ADD CONSTRAINT "PackageTag_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PackageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
