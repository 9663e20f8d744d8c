-- CreateTable
CREATE TABLE "PushInFlight" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repoId" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Rows that say empty may have been cut off by a stop before this table kept such writes: the first start looks at
-- each once.
INSERT INTO "PushInFlight" ("repoId", "startedAt")
SELECT "id", '1970-01-01T00:00:00.000+00:00' FROM "Repository" WHERE "isEmpty" = 1;
