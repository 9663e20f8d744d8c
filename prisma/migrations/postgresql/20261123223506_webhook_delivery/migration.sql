-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "leasedBy" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "HookTask" (
    "id" SERIAL NOT NULL,
    "hookId" INTEGER NOT NULL,
    "uuid" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "isSucceed" BOOLEAN NOT NULL DEFAULT false,
    "requestInfo" TEXT NOT NULL DEFAULT '',
    "responseInfo" TEXT NOT NULL DEFAULT '',
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HookTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "HookTask_uuid_key" ON "HookTask"("uuid");

-- CreateIndex
CREATE INDEX "HookTask_hookId_id_idx" ON "HookTask"("hookId", "id");

-- CreateIndex
CREATE INDEX "Job_kind_runAt_idx" ON "Job"("kind", "runAt");
