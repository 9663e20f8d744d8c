-- AlterTable
ALTER TABLE "HookTask" ADD COLUMN "claimedUntil" DATETIME;
