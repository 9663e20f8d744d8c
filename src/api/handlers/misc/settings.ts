// The instance's settings a client may read (Forgejo: routers/api/v1/settings/settings.go), as Anvil applies them.
import type { Handler } from '../../route.ts';

/** Forgejo's [api] DEFAULT_GIT_TREES_PER_PAGE and DEFAULT_MAX_BLOB_SIZE defaults; Anvil has no setting for them. */
const GIT_TREES_PER_PAGE = 1000;
const MAX_BLOB_SIZE = 10 * 1024 * 1024;

/** Forgejo's [ui] defaults: Anvil serves no web UI of its own, so clients get the values they expect. */
const UI = {
  default_theme: 'forgejo-auto',
  allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
  custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs', 'forgejo'],
};

export const getGeneralAPISettings: Handler<'getGeneralAPISettings'> = (ctx) => {
  const { api } = ctx.app.settings;
  ctx.send(200, {
    max_response_items: api.MAX_RESPONSE_ITEMS,
    default_paging_num: api.DEFAULT_PAGING_NUM,
    default_git_trees_per_page: GIT_TREES_PER_PAGE,
    default_max_blob_size: MAX_BLOB_SIZE,
  });
};

export const getGeneralRepositorySettings: Handler<'getGeneralRepositorySettings'> = (ctx) => {
  const { mirror, repository } = ctx.app.settings;
  ctx.send(200, {
    mirrors_disabled: !mirror.ENABLED,
    http_git_disabled: false,
    migrations_disabled: repository.DISABLE_MIGRATIONS,
    stars_disabled: false,
    forks_disabled: false,
    // Anvil serves neither time tracking nor LFS objects.
    time_tracking_disabled: true,
    lfs_disabled: true,
  });
};

export const getGeneralUISettings: Handler<'getGeneralUISettings'> = (ctx) => {
  ctx.send(200, UI);
};
