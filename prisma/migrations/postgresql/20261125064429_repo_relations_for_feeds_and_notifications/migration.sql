-- Rows of repositories that no longer exist show nothing and would break the new foreign keys.
DELETE FROM "Notification" WHERE "repoId" NOT IN (SELECT "id" FROM "Repository");
DELETE FROM "Action" WHERE "repoId" NOT IN (SELECT "id" FROM "Repository");

-- AlterTable
ALTER TABLE "Action" ALTER COLUMN "repoId" DROP DEFAULT;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Action" ADD CONSTRAINT "Action_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
