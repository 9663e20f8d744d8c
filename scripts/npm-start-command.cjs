// What `npm start` runs, read from package.json: its environment, node's options and the script. The bench starts
// Anvil this way without npm around it, and the build warms the code cache under the same V8 options (V8 refuses a
// cache made under other options).
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** Typed in npm-start-command.d.cts. */
function npmStartCommand() {
  const command = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const words = command.split(/\s+/);
  const env = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift().split('=');
    env[name] = value;
  }
  // `exec node …` replaces npm's shell with node.
  if (words[0] === 'exec') words.shift();
  const [program, ...rest] = words;
  if (program !== 'node') throw new Error(`npm start runs ${program}, not node`);
  const scriptAt = rest.findIndex((word) => !word.startsWith('-'));
  return { env, nodeArgs: rest.slice(0, scriptAt), args: rest.slice(scriptAt) };
}

module.exports = { npmStartCommand };
