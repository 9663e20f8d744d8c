// What must hold before the server touches anything: the data directory usable, git on PATH, the TLS files
// readable. Each failure is one line for the administrator (main prints it and exits 1).
import fs from 'node:fs';
import which from 'which';
import type { Settings } from '../config/settings.ts';

export class StartupError extends Error {}

function usableDirectory(dir: string, what: string): void {
  let current = dir;
  // The directory may not exist yet: the nearest existing ancestor must then let us create it.
  while (!fs.existsSync(current)) current = current.slice(0, current.lastIndexOf('/')) || '/';
  try {
    fs.accessSync(current, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new StartupError(`${what} ${dir} is not readable and writable by this user (${current})`);
  }
  if (!fs.statSync(current).isDirectory()) throw new StartupError(`${what} ${current} is not a directory`);
}

export function preflight(settings: Settings): void {
  usableDirectory(settings.server.APP_DATA_PATH, 'the data directory');
  // Looked up on PATH rather than run: starting git here cost a start about 18 ms.
  if (!which.sync('git', { nothrow: true })) {
    throw new StartupError('git is not installed or not on PATH; Anvil needs git 2.30 or newer');
  }
  if (settings.server.PROTOCOL === 'https') {
    for (const key of ['CERT_FILE', 'KEY_FILE'] as const) {
      try {
        fs.accessSync(settings.server[key], fs.constants.R_OK);
      } catch {
        throw new StartupError(`[server] ${key}: ${settings.server[key]} cannot be read`);
      }
    }
  }
}
