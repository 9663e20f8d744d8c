-- AlterTable
ALTER TABLE "Package" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0;
