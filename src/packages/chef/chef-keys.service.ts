// The RSA public key a user (or organization) signs Chef requests with, kept as Forgejo keeps it: the user setting
// `chef.public_pem` (modules/packages/chef SettingPublicPem). Forgejo's settings page makes a 4096-bit pair,
// keeps the public half and hands out the private one once; Anvil does the same from `anvil admin user
// chef-keypair`, which also takes a public key the user already has.
import { createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { User } from '../../db/entities.ts';
import { BadRequestError } from '../../domain/errors.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';

export const CHEF_PUBLIC_PEM_SETTING = 'chef.public_pem';
const KEY_BITS = 4096;
const MIN_KEY_BITS = 2048;

const generate = promisify(generateKeyPair);

export class ChefKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The user's key, or null when none is set (or the stored one no longer parses). */
  async publicKey(user: User): Promise<KeyObject | null> {
    const pem = await this.deps.repos.userSettings.get(user.id, CHEF_PUBLIC_PEM_SETTING);
    if (!pem) return null;
    try {
      return createPublicKey(pem);
    } catch {
      return null;
    }
  }

  /** Keeps a public key the user has (PEM, PKIX or PKCS#1); only RSA keys of 2048 bits or more are taken (400). */
  async setPublicKey(user: User, pem: string): Promise<void> {
    let key: KeyObject;
    try {
      key = createPublicKey(pem);
    } catch {
      throw new BadRequestError('the public key is not a PEM-encoded key');
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (key.asymmetricKeyType !== 'rsa' || bits < MIN_KEY_BITS) {
      throw new BadRequestError(`the public key must be an RSA key of at least ${MIN_KEY_BITS} bits`);
    }
    const normalised = key.export({ type: 'spki', format: 'pem' }).toString();
    await this.deps.repos.userSettings.put(user.id, CHEF_PUBLIC_PEM_SETTING, normalised);
  }

  /** Makes a new pair, keeps its public half, and answers the private half (PKCS#1 PEM, as knife reads it). */
  async regenerate(user: User): Promise<string> {
    const { publicKey, privateKey } = await generate('rsa', {
      modulusLength: KEY_BITS,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    await this.deps.repos.userSettings.put(user.id, CHEF_PUBLIC_PEM_SETTING, publicKey);
    return privateKey;
  }
}
