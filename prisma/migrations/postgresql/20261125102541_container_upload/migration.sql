-- CreateTable
CREATE TABLE "ContainerUpload" (
    "id" TEXT NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "image" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "parts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContainerUpload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ContainerUpload_updatedAt_idx" ON "ContainerUpload"("updatedAt");
