-- CreateTable
CREATE TABLE "PushInFlight" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushInFlight_pkey" PRIMARY KEY ("id")
);

-- Rows that say empty may have been cut off by a stop before this table kept such writes: the first start looks at
-- each once.
INSERT INTO "PushInFlight" ("repoId", "startedAt")
SELECT "id", TIMESTAMP '1970-01-01 00:00:00' FROM "Repository" WHERE "isEmpty" = true;
