-- AlterTable
ALTER TABLE "Attachment" ADD COLUMN     "blobKey" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Release" ADD COLUMN     "isDraft" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "isPrerelease" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "note" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "publisherId" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "sha" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "target" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "CommitStatus" (
    "id" SERIAL NOT NULL,
    "index" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "targetUrl" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "context" TEXT NOT NULL DEFAULT '',
    "creatorId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CommitStatus_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProtectedBranch" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "ruleName" TEXT NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProtectedBranch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CommitStatus_repoId_sha_index_key" ON "CommitStatus"("repoId", "sha", "index");

-- CreateIndex
CREATE UNIQUE INDEX "ProtectedBranch_repoId_ruleName_key" ON "ProtectedBranch"("repoId", "ruleName");

-- CreateIndex
CREATE INDEX "Attachment_releaseId_idx" ON "Attachment"("releaseId");
