-- AlterTable
ALTER TABLE "PublicKey" ALTER COLUMN "ownerId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Repository" ADD COLUMN     "avatar" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "DeployKey" (
    "id" SERIAL NOT NULL,
    "keyId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "mode" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeployKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProtectedTag" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "namePattern" TEXT NOT NULL,
    "allowlistUserIds" TEXT NOT NULL DEFAULT '[]',
    "allowlistTeamIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProtectedTag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Topic_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DeployKey_keyId_repoId_key" ON "DeployKey"("keyId", "repoId");

-- CreateIndex
CREATE UNIQUE INDEX "DeployKey_repoId_name_key" ON "DeployKey"("repoId", "name");

-- CreateIndex
CREATE INDEX "ProtectedTag_repoId_idx" ON "ProtectedTag"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_name_key" ON "Topic"("name");

-- AddForeignKey
ALTER TABLE "DeployKey" ADD CONSTRAINT "DeployKey_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "PublicKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeployKey" ADD CONSTRAINT "DeployKey_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProtectedTag" ADD CONSTRAINT "ProtectedTag_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
