-- CreateTable
CREATE TABLE "QuotaReservation" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "leaf" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QuotaReservation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QuotaReservation_ownerId_expiresAt_idx" ON "QuotaReservation"("ownerId", "expiresAt");
