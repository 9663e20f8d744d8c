-- AlterTable
ALTER TABLE "Release" ADD COLUMN     "hideArchiveLinks" BOOLEAN NOT NULL DEFAULT false;
