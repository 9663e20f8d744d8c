// `admin user …` and `admin regenerate hooks`: Forgejo's command names and flags (cmd/admin_user_*.go), over the
// same services the API uses, on a database that may not have served yet. `admin user chef-keypair` stands in for
// the button of Forgejo's package settings page that makes a user's Chef key pair.
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { AppContext } from '../app/app-context.ts';
import type { User } from '../db/entities.ts';
import { regenerateHooks } from '../maintenance/regenerate-hooks.ts';

export type WithContext = <T>(work: (context: AppContext) => Promise<T>) => Promise<T>;

/** A boolean flag as Forgejo's take them: `--admin`, `--admin=true`, `--admin=false`; anything else is refused. */
export function booleanFlag(flags: string, description: string, fallback?: boolean): Option {
  const option = new Option(`${flags} [bool]`, description).argParser((value: string) => {
    if (/^(true|1)$/i.test(value)) return true;
    if (/^(false|0)$/i.test(value)) return false;
    throw new InvalidArgumentError('expected true or false (write --flag=false)');
  });
  option.preset(true);
  return fallback === undefined ? option : option.default(fallback);
}

/** The password from --password, or from --password-file (`-` reads standard input), first line. */
function readPassword(options: { password?: string; passwordFile?: string }): string | undefined {
  if (options.passwordFile === undefined) return options.password;
  const text = fs.readFileSync(options.passwordFile === '-' ? 0 : options.passwordFile, 'utf8');
  return text.split(/\r?\n/)[0];
}

async function userByName(context: AppContext, name: string): Promise<User> {
  const user = await context.services.users.byName(name);
  if (!user) throw new Error(`user '${name}' does not exist`);
  return user;
}

export function adminCommand(withContext: WithContext): Command {
  const admin = new Command('admin').description('Administrative operations');
  const user = admin.command('user').description('Modify users');

  user
    .command('create')
    .description('Create a new user')
    .requiredOption('--username <name>', 'username')
    .requiredOption('--email <address>', 'e-mail address')
    .option('--password <password>', 'password (visible to other users of this machine: prefer --password-file)')
    .option('--password-file <path>', 'read the password from this file, or from standard input with -')
    .addOption(booleanFlag('--admin', 'make the user an administrator', false))
    .addOption(booleanFlag('--must-change-password', 'require a password change at first sign-in', true))
    .addOption(booleanFlag('--access-token', 'also create an access token with every scope, printed last', false))
    .option('--access-token-name <name>', 'name of that token')
    .action(async (options) => {
      const password = readPassword(options);
      if (!password) throw new Error('a password is required: --password or --password-file');
      await withContext(async (context) => {
        const created = await context.services.users.create({
          username: options.username,
          password,
          email: options.email,
          isAdmin: options.admin,
          mustChangePassword: options.mustChangePassword,
        });
        console.log(`New user '${created.name}' has been successfully created!`);
        if (options.accessToken) {
          const name = options.accessTokenName ?? `cli-${Date.now()}`;
          const { secret } = await context.services.accessTokens.create(created, name, ['all']);
          console.log(secret);
        }
      });
    });

  user
    .command('list')
    .description('List users')
    .addOption(booleanFlag('--admin', 'list administrators only', false))
    .action(async (options) =>
      withContext(async (context) => {
        const { users } = await context.services.users.search({}, { page: 1, limit: 1_000_000, skip: 0 });
        console.log('ID\tUsername\tEmail\tIsActive\tIsAdmin');
        for (const row of users) {
          if (options.admin && !row.isAdmin) continue;
          console.log(`${row.id}\t${row.name}\t${row.email}\t${row.isActive}\t${row.isAdmin}`);
        }
      }),
    );

  user
    .command('delete')
    .description('Delete a user')
    .requiredOption('-u, --username <name>', 'username')
    .addOption(booleanFlag('--purge', "also delete the user's repositories, organizations and packages", false))
    .action(async (options) =>
      withContext(async (context) => {
        const target = await userByName(context, options.username);
        // The command line acts as the site itself, never as the account it deletes.
        const site: User = { ...target, id: -1, isAdmin: true };
        await context.services.users.delete(site, target, options.purge);
        console.log(`User '${target.name}' has been deleted`);
      }),
    );

  user
    .command('change-password')
    .description("Change a user's password")
    .requiredOption('-u, --username <name>', 'username')
    .option('-p, --password <password>', 'the new password (prefer --password-file)')
    .option('--password-file <path>', 'read the new password from this file, or from standard input with -')
    .addOption(booleanFlag('--must-change-password', 'require a password change at next sign-in', true))
    .action(async (options) => {
      const password = readPassword(options);
      if (!password) throw new Error('a password is required: --password or --password-file');
      await withContext(async (context) => {
        const target = await userByName(context, options.username);
        await context.services.users.edit(target, { password, mustChangePassword: options.mustChangePassword });
        console.log(`${target.name}'s password has been successfully updated!`);
      });
    });

  user
    .command('must-change-password')
    .description('Set or unset the must-change-password flag of users')
    .argument('[usernames...]', 'the users')
    .addOption(booleanFlag('-A, --all', 'all users', false))
    .option('-X, --exclude <name...>', 'users --all leaves out')
    .addOption(booleanFlag('--unset', 'unset the flag instead of setting it', false))
    .action(async (names: string[], options) =>
      withContext(async (context) => {
        const targets = options.all
          ? (await context.services.users.search({}, { page: 1, limit: 1_000_000, skip: 0 })).users.filter(
              (row) => row.type === 0 && !(options.exclude ?? []).includes(row.name),
            )
          : await Promise.all(names.map((name) => userByName(context, name)));
        for (const target of targets) await context.services.users.edit(target, { mustChangePassword: !options.unset });
        console.log(`Updated ${targets.length} users' must-change-password flag to ${!options.unset}`);
      }),
    );

  user
    .command('generate-access-token')
    .description('Generate an access token for a user')
    .requiredOption('-u, --username <name>', 'username')
    .option('-t, --token-name <name>', 'token name', 'gitea-admin')
    .option('--scopes <scopes>', 'comma-separated scopes', 'all')
    .addOption(booleanFlag('--raw', 'print the token only', false))
    .action(async (options) =>
      withContext(async (context) => {
        const target = await userByName(context, options.username);
        const scopes = String(options.scopes)
          .split(',')
          .map((scope) => scope.trim());
        const { secret } = await context.services.accessTokens.create(target, options.tokenName, scopes);
        console.log(options.raw ? secret : `Access token was successfully created: ${secret}`);
      }),
    );

  user
    .command('chef-keypair')
    .description(
      "Make the key pair a user or organization signs Chef requests with: the public key is kept, the private key printed (knife's client_key)",
    )
    .requiredOption('-u, --username <name>', 'the user or organization')
    .option('--public-key-file <path>', 'keep this PEM public key instead of making a pair (- reads standard input)')
    .action(async (options) =>
      withContext(async (context) => {
        const target = await userByName(context, options.username);
        const { chefKeys } = context.services;
        if (options.publicKeyFile === undefined) {
          process.stdout.write(await chefKeys.regenerate(target));
          return;
        }
        const pem = fs.readFileSync(options.publicKeyFile === '-' ? 0 : options.publicKeyFile, 'utf8');
        await chefKeys.setPublicKey(target, pem);
        console.log(`${target.name}'s Chef public key has been set`);
      }),
    );

  admin
    .command('regenerate')
    .description('Regenerate files derived from the database')
    .command('hooks')
    .description("Regenerate the repositories' git hooks")
    .action(() =>
      withContext(async (context) => {
        const result = regenerateHooks(context.settings, (line) => console.log(line));
        for (const { file, rewritten } of result.shared)
          console.log(`${rewritten ? 'rewrote' : 'up to date'}: ${file}`);
        console.log(
          `${result.repositories} repositories checked; Anvil keeps no hooks inside them (its pushes run the scripts above)`,
        );
        for (const { repository, hooks } of result.withOwnHooks)
          console.log(`warning: ${repository} has hooks of its own, which git runs on pushes: ${hooks.join(', ')}`);
      }),
    );

  return admin;
}
