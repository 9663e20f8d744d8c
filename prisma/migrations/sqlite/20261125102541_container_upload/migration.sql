-- CreateTable
CREATE TABLE "ContainerUpload" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" INTEGER NOT NULL,
    "image" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "parts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "ContainerUpload_updatedAt_idx" ON "ContainerUpload"("updatedAt");
