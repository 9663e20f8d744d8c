-- CreateTable
CREATE TABLE "HookTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Job" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leasedUntil" DATETIME,
    "leasedBy" TEXT NOT NULL DEFAULT '',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Job" ("attempts", "createdAt", "id", "kind", "lastError", "leasedUntil", "payload", "runAt") SELECT "attempts", "createdAt", "id", "kind", "lastError", "leasedUntil", "payload", "runAt" FROM "Job";
DROP TABLE "Job";
ALTER TABLE "new_Job" RENAME TO "Job";
CREATE INDEX "Job_runAt_idx" ON "Job"("runAt");
CREATE INDEX "Job_kind_runAt_idx" ON "Job"("kind", "runAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "HookTask_uuid_key" ON "HookTask"("uuid");

-- CreateIndex
CREATE INDEX "HookTask_hookId_id_idx" ON "HookTask"("hookId", "id");
