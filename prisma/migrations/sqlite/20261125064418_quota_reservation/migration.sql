-- CreateTable
CREATE TABLE "QuotaReservation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "leaf" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "QuotaReservation_ownerId_expiresAt_idx" ON "QuotaReservation"("ownerId", "expiresAt");
