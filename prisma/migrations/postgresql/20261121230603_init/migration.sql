-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "fullName" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "keepEmailPrivate" BOOLEAN NOT NULL DEFAULT false,
    "passwordHash" TEXT NOT NULL DEFAULT '',
    "mustChangePassword" BOOLEAN NOT NULL DEFAULT false,
    "loginType" INTEGER NOT NULL DEFAULT 1,
    "loginSourceId" INTEGER NOT NULL DEFAULT 0,
    "loginName" TEXT NOT NULL DEFAULT '',
    "location" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "pronouns" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT '',
    "visibility" INTEGER NOT NULL DEFAULT 0,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "isRestricted" BOOLEAN NOT NULL DEFAULT false,
    "prohibitLogin" BOOLEAN NOT NULL DEFAULT false,
    "allowGitHook" BOOLEAN NOT NULL DEFAULT false,
    "allowImportLocal" BOOLEAN NOT NULL DEFAULT false,
    "allowCreateOrganization" BOOLEAN NOT NULL DEFAULT true,
    "maxRepoCreation" INTEGER NOT NULL DEFAULT -1,
    "avatar" TEXT NOT NULL DEFAULT '',
    "hideActivity" BOOLEAN NOT NULL DEFAULT false,
    "repoAdminChangeTeamAccess" BOOLEAN NOT NULL DEFAULT false,
    "numFollowers" INTEGER NOT NULL DEFAULT 0,
    "numFollowing" INTEGER NOT NULL DEFAULT 0,
    "numStars" INTEGER NOT NULL DEFAULT 0,
    "numRepos" INTEGER NOT NULL DEFAULT 0,
    "lastLoginAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserRedirect" (
    "id" SERIAL NOT NULL,
    "lowerName" TEXT NOT NULL,
    "redirectUserId" INTEGER NOT NULL,

    CONSTRAINT "UserRedirect_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserSetting" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "UserSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginSource" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "config" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoginSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmailAddress" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "lowerEmail" TEXT NOT NULL,
    "isActivated" BOOLEAN NOT NULL DEFAULT true,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "EmailAddress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenLastEight" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PublicKey" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "keyType" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PublicKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Follow" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "followId" INTEGER NOT NULL,
    "created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Follow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserBlocking" (
    "id" SERIAL NOT NULL,
    "blockerId" INTEGER NOT NULL,
    "blockeeId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserBlocking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrgUser" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "orgId" INTEGER NOT NULL,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "OrgUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Team" (
    "id" SERIAL NOT NULL,
    "orgId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "accessMode" INTEGER NOT NULL DEFAULT 0,
    "includesAllRepositories" BOOLEAN NOT NULL DEFAULT false,
    "canCreateOrgRepo" BOOLEAN NOT NULL DEFAULT false,
    "numMembers" INTEGER NOT NULL DEFAULT 0,
    "numRepos" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamUnit" (
    "id" SERIAL NOT NULL,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "type" INTEGER NOT NULL,
    "accessMode" INTEGER NOT NULL,

    CONSTRAINT "TeamUnit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamUser" (
    "id" SERIAL NOT NULL,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "TeamUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamRepo" (
    "id" SERIAL NOT NULL,
    "orgId" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,

    CONSTRAINT "TeamRepo_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Repository" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "ownerName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "originalUrl" TEXT NOT NULL DEFAULT '',
    "defaultBranch" TEXT NOT NULL DEFAULT 'main',
    "topics" TEXT NOT NULL DEFAULT '[]',
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "isEmpty" BOOLEAN NOT NULL DEFAULT true,
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "isMirror" BOOLEAN NOT NULL DEFAULT false,
    "isTemplate" BOOLEAN NOT NULL DEFAULT false,
    "isFork" BOOLEAN NOT NULL DEFAULT false,
    "forkId" INTEGER NOT NULL DEFAULT 0,
    "size" BIGINT NOT NULL DEFAULT 0,
    "gitSize" BIGINT NOT NULL DEFAULT 0,
    "lfsSize" BIGINT NOT NULL DEFAULT 0,
    "numStars" INTEGER NOT NULL DEFAULT 0,
    "numForks" INTEGER NOT NULL DEFAULT 0,
    "numWatches" INTEGER NOT NULL DEFAULT 0,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "numPulls" INTEGER NOT NULL DEFAULT 0,
    "numClosedPulls" INTEGER NOT NULL DEFAULT 0,
    "settings" TEXT NOT NULL DEFAULT '{}',
    "archivedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Repository_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RepoUnit" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "type" INTEGER NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RepoUnit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RepoRedirect" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "lowerName" TEXT NOT NULL,
    "redirectRepoId" INTEGER NOT NULL,

    CONSTRAINT "RepoRedirect_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Collaboration" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accessMode" INTEGER NOT NULL DEFAULT 2,

    CONSTRAINT "Collaboration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Star" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Star_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Watch" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "mode" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Watch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Mirror" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "intervalSecs" INTEGER NOT NULL DEFAULT 28800,
    "remoteAddress" TEXT NOT NULL DEFAULT '',
    "nextUpdateAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Mirror_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Label" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "orgId" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "exclusive" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT NOT NULL DEFAULT '',
    "color" TEXT NOT NULL,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "archivedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Milestone" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "isClosed" BOOLEAN NOT NULL DEFAULT false,
    "numIssues" INTEGER NOT NULL DEFAULT 0,
    "numClosedIssues" INTEGER NOT NULL DEFAULT 0,
    "deadlineAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Milestone_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Issue" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "posterId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "isClosed" BOOLEAN NOT NULL DEFAULT false,
    "isPull" BOOLEAN NOT NULL DEFAULT false,
    "milestoneId" INTEGER NOT NULL DEFAULT 0,
    "numComments" INTEGER NOT NULL DEFAULT 0,
    "deadlineAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Issue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssueLabel" (
    "id" SERIAL NOT NULL,
    "issueId" INTEGER NOT NULL,
    "labelId" INTEGER NOT NULL,

    CONSTRAINT "IssueLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssueAssignee" (
    "id" SERIAL NOT NULL,
    "issueId" INTEGER NOT NULL,
    "assigneeId" INTEGER NOT NULL,

    CONSTRAINT "IssueAssignee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssueWatch" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "isWatching" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IssueWatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL DEFAULT 0,
    "posterId" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Release" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL,
    "tagName" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Release_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attachment" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "issueId" INTEGER NOT NULL DEFAULT 0,
    "releaseId" INTEGER NOT NULL DEFAULT 0,
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "uploaderId" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "size" BIGINT NOT NULL DEFAULT 0,
    "downloadCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 1,
    "source" INTEGER NOT NULL,
    "issueId" INTEGER NOT NULL DEFAULT 0,
    "commitId" TEXT NOT NULL DEFAULT '',
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "updatedBy" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Action" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "opType" INTEGER NOT NULL,
    "actUserId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "commentId" INTEGER NOT NULL DEFAULT 0,
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "refName" TEXT NOT NULL DEFAULT '',
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "content" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Action_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Webhook" (
    "id" SERIAL NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "isSystemWebhook" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "httpMethod" TEXT NOT NULL DEFAULT 'POST',
    "contentType" INTEGER NOT NULL DEFAULT 1,
    "secret" TEXT NOT NULL DEFAULT '',
    "events" TEXT NOT NULL DEFAULT '{}',
    "meta" TEXT NOT NULL DEFAULT '{}',
    "branchFilter" TEXT NOT NULL DEFAULT '',
    "authorization" TEXT NOT NULL DEFAULT '',
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leasedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Secret" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Secret_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionVariable" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionVariable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionRunnerToken" (
    "id" SERIAL NOT NULL,
    "token" TEXT NOT NULL,
    "ownerId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionRunnerToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionArtifact" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL DEFAULT 0,
    "repoId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fileSize" BIGINT NOT NULL DEFAULT 0,
    "fileCompressedSize" BIGINT NOT NULL DEFAULT 0,
    "status" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionArtifact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Package" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "repoId" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "semverCompatible" BOOLEAN NOT NULL DEFAULT false,
    "isInternal" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Package_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackageVersion" (
    "id" SERIAL NOT NULL,
    "packageId" INTEGER NOT NULL,
    "creatorId" INTEGER NOT NULL DEFAULT 0,
    "version" TEXT NOT NULL,
    "lowerVersion" TEXT NOT NULL,
    "metadataJson" TEXT NOT NULL DEFAULT '{}',
    "isInternal" BOOLEAN NOT NULL DEFAULT false,
    "downloadCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PackageVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackageFile" (
    "id" SERIAL NOT NULL,
    "versionId" INTEGER NOT NULL,
    "blobId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "lowerName" TEXT NOT NULL,
    "compositeKey" TEXT NOT NULL DEFAULT '',
    "isLead" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PackageFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackageBlob" (
    "id" SERIAL NOT NULL,
    "size" BIGINT NOT NULL,
    "hashMd5" TEXT NOT NULL,
    "hashSha1" TEXT NOT NULL,
    "hashSha256" TEXT NOT NULL,
    "hashSha512" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PackageBlob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuotaRule" (
    "name" TEXT NOT NULL,
    "limit" BIGINT NOT NULL,
    "subjects" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "QuotaRule_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "QuotaGroup" (
    "name" TEXT NOT NULL,

    CONSTRAINT "QuotaGroup_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "QuotaGroupRule" (
    "id" SERIAL NOT NULL,
    "groupName" TEXT NOT NULL,
    "ruleName" TEXT NOT NULL,

    CONSTRAINT "QuotaGroupRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuotaGroupUser" (
    "id" SERIAL NOT NULL,
    "groupName" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "QuotaGroupUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CronTask" (
    "name" TEXT NOT NULL,
    "execTimes" INTEGER NOT NULL DEFAULT 0,
    "lastRunAt" TIMESTAMP(3),
    "nextRunAt" TIMESTAMP(3),
    "lockedUntil" TIMESTAMP(3),
    "lockedBy" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "CronTask_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_lowerName_key" ON "User"("lowerName");

-- CreateIndex
CREATE INDEX "User_type_lowerName_idx" ON "User"("type", "lowerName");

-- CreateIndex
CREATE INDEX "User_loginSourceId_loginName_idx" ON "User"("loginSourceId", "loginName");

-- CreateIndex
CREATE UNIQUE INDEX "UserRedirect_lowerName_key" ON "UserRedirect"("lowerName");

-- CreateIndex
CREATE INDEX "UserRedirect_redirectUserId_idx" ON "UserRedirect"("redirectUserId");

-- CreateIndex
CREATE UNIQUE INDEX "UserSetting_userId_key_key" ON "UserSetting"("userId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "LoginSource_name_key" ON "LoginSource"("name");

-- CreateIndex
CREATE UNIQUE INDEX "EmailAddress_lowerEmail_key" ON "EmailAddress"("lowerEmail");

-- CreateIndex
CREATE INDEX "EmailAddress_userId_idx" ON "EmailAddress"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "AccessToken_tokenHash_key" ON "AccessToken"("tokenHash");

-- CreateIndex
CREATE INDEX "AccessToken_tokenLastEight_idx" ON "AccessToken"("tokenLastEight");

-- CreateIndex
CREATE UNIQUE INDEX "AccessToken_userId_name_key" ON "AccessToken"("userId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "PublicKey_fingerprint_key" ON "PublicKey"("fingerprint");

-- CreateIndex
CREATE INDEX "PublicKey_ownerId_idx" ON "PublicKey"("ownerId");

-- CreateIndex
CREATE INDEX "Follow_followId_idx" ON "Follow"("followId");

-- CreateIndex
CREATE UNIQUE INDEX "Follow_userId_followId_key" ON "Follow"("userId", "followId");

-- CreateIndex
CREATE INDEX "UserBlocking_blockeeId_idx" ON "UserBlocking"("blockeeId");

-- CreateIndex
CREATE UNIQUE INDEX "UserBlocking_blockerId_blockeeId_key" ON "UserBlocking"("blockerId", "blockeeId");

-- CreateIndex
CREATE INDEX "OrgUser_orgId_userId_idx" ON "OrgUser"("orgId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "OrgUser_userId_orgId_key" ON "OrgUser"("userId", "orgId");

-- CreateIndex
CREATE UNIQUE INDEX "Team_orgId_lowerName_key" ON "Team"("orgId", "lowerName");

-- CreateIndex
CREATE UNIQUE INDEX "TeamUnit_teamId_type_key" ON "TeamUnit"("teamId", "type");

-- CreateIndex
CREATE INDEX "TeamUser_userId_orgId_idx" ON "TeamUser"("userId", "orgId");

-- CreateIndex
CREATE INDEX "TeamUser_orgId_idx" ON "TeamUser"("orgId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamUser_teamId_userId_key" ON "TeamUser"("teamId", "userId");

-- CreateIndex
CREATE INDEX "TeamRepo_repoId_idx" ON "TeamRepo"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamRepo_teamId_repoId_key" ON "TeamRepo"("teamId", "repoId");

-- CreateIndex
CREATE INDEX "Repository_lowerName_idx" ON "Repository"("lowerName");

-- CreateIndex
CREATE INDEX "Repository_isPrivate_ownerId_idx" ON "Repository"("isPrivate", "ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "Repository_ownerId_lowerName_key" ON "Repository"("ownerId", "lowerName");

-- CreateIndex
CREATE UNIQUE INDEX "RepoUnit_repoId_type_key" ON "RepoUnit"("repoId", "type");

-- CreateIndex
CREATE UNIQUE INDEX "RepoRedirect_ownerId_lowerName_key" ON "RepoRedirect"("ownerId", "lowerName");

-- CreateIndex
CREATE INDEX "Collaboration_userId_idx" ON "Collaboration"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Collaboration_repoId_userId_key" ON "Collaboration"("repoId", "userId");

-- CreateIndex
CREATE INDEX "Star_repoId_idx" ON "Star"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Star_userId_repoId_key" ON "Star"("userId", "repoId");

-- CreateIndex
CREATE INDEX "Watch_repoId_idx" ON "Watch"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Watch_userId_repoId_key" ON "Watch"("userId", "repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Mirror_repoId_key" ON "Mirror"("repoId");

-- CreateIndex
CREATE INDEX "Mirror_nextUpdateAt_idx" ON "Mirror"("nextUpdateAt");

-- CreateIndex
CREATE INDEX "Label_orgId_idx" ON "Label"("orgId");

-- CreateIndex
CREATE INDEX "Label_repoId_idx" ON "Label"("repoId");

-- CreateIndex
CREATE INDEX "Milestone_repoId_idx" ON "Milestone"("repoId");

-- CreateIndex
CREATE INDEX "Issue_repoId_isClosed_createdAt_idx" ON "Issue"("repoId", "isClosed", "createdAt");

-- CreateIndex
CREATE INDEX "Issue_posterId_idx" ON "Issue"("posterId");

-- CreateIndex
CREATE UNIQUE INDEX "Issue_repoId_index_key" ON "Issue"("repoId", "index");

-- CreateIndex
CREATE INDEX "IssueLabel_labelId_idx" ON "IssueLabel"("labelId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueLabel_issueId_labelId_key" ON "IssueLabel"("issueId", "labelId");

-- CreateIndex
CREATE INDEX "IssueAssignee_assigneeId_idx" ON "IssueAssignee"("assigneeId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueAssignee_issueId_assigneeId_key" ON "IssueAssignee"("issueId", "assigneeId");

-- CreateIndex
CREATE UNIQUE INDEX "IssueWatch_userId_issueId_key" ON "IssueWatch"("userId", "issueId");

-- CreateIndex
CREATE INDEX "Comment_issueId_idx" ON "Comment"("issueId");

-- CreateIndex
CREATE UNIQUE INDEX "Release_repoId_tagName_key" ON "Release"("repoId", "tagName");

-- CreateIndex
CREATE UNIQUE INDEX "Attachment_uuid_key" ON "Attachment"("uuid");

-- CreateIndex
CREATE INDEX "Attachment_repoId_idx" ON "Attachment"("repoId");

-- CreateIndex
CREATE INDEX "Notification_userId_status_updatedAt_idx" ON "Notification"("userId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "Notification_repoId_idx" ON "Notification"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_userId_issueId_source_key" ON "Notification"("userId", "issueId", "source");

-- CreateIndex
CREATE INDEX "Action_userId_createdAt_idx" ON "Action"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Action_repoId_createdAt_idx" ON "Action"("repoId", "createdAt");

-- CreateIndex
CREATE INDEX "Action_actUserId_idx" ON "Action"("actUserId");

-- CreateIndex
CREATE INDEX "Webhook_ownerId_idx" ON "Webhook"("ownerId");

-- CreateIndex
CREATE INDEX "Webhook_repoId_idx" ON "Webhook"("repoId");

-- CreateIndex
CREATE INDEX "Webhook_isSystemWebhook_idx" ON "Webhook"("isSystemWebhook");

-- CreateIndex
CREATE INDEX "Job_runAt_idx" ON "Job"("runAt");

-- CreateIndex
CREATE UNIQUE INDEX "Secret_ownerId_repoId_name_key" ON "Secret"("ownerId", "repoId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionVariable_ownerId_repoId_name_key" ON "ActionVariable"("ownerId", "repoId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ActionRunnerToken_token_key" ON "ActionRunnerToken"("token");

-- CreateIndex
CREATE INDEX "ActionRunnerToken_ownerId_repoId_idx" ON "ActionRunnerToken"("ownerId", "repoId");

-- CreateIndex
CREATE INDEX "ActionArtifact_ownerId_idx" ON "ActionArtifact"("ownerId");

-- CreateIndex
CREATE INDEX "ActionArtifact_repoId_idx" ON "ActionArtifact"("repoId");

-- CreateIndex
CREATE UNIQUE INDEX "Package_ownerId_type_lowerName_key" ON "Package"("ownerId", "type", "lowerName");

-- CreateIndex
CREATE UNIQUE INDEX "PackageVersion_packageId_lowerVersion_key" ON "PackageVersion"("packageId", "lowerVersion");

-- CreateIndex
CREATE INDEX "PackageFile_blobId_idx" ON "PackageFile"("blobId");

-- CreateIndex
CREATE UNIQUE INDEX "PackageFile_versionId_lowerName_compositeKey_key" ON "PackageFile"("versionId", "lowerName", "compositeKey");

-- CreateIndex
CREATE UNIQUE INDEX "PackageBlob_hashSha256_key" ON "PackageBlob"("hashSha256");

-- CreateIndex
CREATE UNIQUE INDEX "QuotaGroupRule_groupName_ruleName_key" ON "QuotaGroupRule"("groupName", "ruleName");

-- CreateIndex
CREATE INDEX "QuotaGroupUser_userId_idx" ON "QuotaGroupUser"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "QuotaGroupUser_groupName_userId_key" ON "QuotaGroupUser"("groupName", "userId");

-- AddForeignKey
ALTER TABLE "UserSetting" ADD CONSTRAINT "UserSetting_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmailAddress" ADD CONSTRAINT "EmailAddress_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessToken" ADD CONSTRAINT "AccessToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PublicKey" ADD CONSTRAINT "PublicKey_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrgUser" ADD CONSTRAINT "OrgUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrgUser" ADD CONSTRAINT "OrgUser_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamUnit" ADD CONSTRAINT "TeamUnit_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamUser" ADD CONSTRAINT "TeamUser_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamUser" ADD CONSTRAINT "TeamUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamRepo" ADD CONSTRAINT "TeamRepo_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamRepo" ADD CONSTRAINT "TeamRepo_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Repository" ADD CONSTRAINT "Repository_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RepoUnit" ADD CONSTRAINT "RepoUnit_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Collaboration" ADD CONSTRAINT "Collaboration_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mirror" ADD CONSTRAINT "Mirror_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Issue" ADD CONSTRAINT "Issue_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssueLabel" ADD CONSTRAINT "IssueLabel_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssueAssignee" ADD CONSTRAINT "IssueAssignee_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackageVersion" ADD CONSTRAINT "PackageVersion_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "Package"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackageFile" ADD CONSTRAINT "PackageFile_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "PackageVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PackageFile" ADD CONSTRAINT "PackageFile_blobId_fkey" FOREIGN KEY ("blobId") REFERENCES "PackageBlob"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotaGroupRule" ADD CONSTRAINT "QuotaGroupRule_groupName_fkey" FOREIGN KEY ("groupName") REFERENCES "QuotaGroup"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotaGroupRule" ADD CONSTRAINT "QuotaGroupRule_ruleName_fkey" FOREIGN KEY ("ruleName") REFERENCES "QuotaRule"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuotaGroupUser" ADD CONSTRAINT "QuotaGroupUser_groupName_fkey" FOREIGN KEY ("groupName") REFERENCES "QuotaGroup"("name") ON DELETE CASCADE ON UPDATE CASCADE;
