-- AlterTable
ALTER TABLE "HookTask" ADD COLUMN     "claimedUntil" TIMESTAMP(3);
