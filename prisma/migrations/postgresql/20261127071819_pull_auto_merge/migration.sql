-- CreateTable
CREATE TABLE "PullAutoMerge" (
    "id" SERIAL NOT NULL,
    "pullId" INTEGER NOT NULL,
    "doerId" INTEGER NOT NULL,
    "mergeStyle" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "deleteBranchAfterMerge" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PullAutoMerge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PullAutoMerge_pullId_key" ON "PullAutoMerge"("pullId");
