// `npm start`: open the built app in Electron. When the Electron binary is missing (installs
// that skipped its download), try to fetch it once; if that fails, say so plainly and exit 1.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    return require('electron'); // the package's main export is the binary's path
  } catch {
    return null;
  }
}

let binary = electronBinary();
if (!binary) {
  console.log('Sift: the Electron binary is not installed yet; downloading it (needs network access)…');
  const download = spawnSync(process.execPath, [require.resolve('electron/install.js')], {
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  binary = electronBinary();
  const reason = `${download.stderr}\n${download.stdout}`.split('\n').find((l) => /error/i.test(l));
  if (!binary && reason) console.error(`Sift: the download failed: ${reason.trim()}`);
}
if (!binary) {
  console.error(
    'Sift: cannot start: the Electron binary (node_modules/electron/dist) is missing and could not be downloaded.\n' +
      'Run `node node_modules/electron/install.js` on a machine with network access, or use browser mode: `npm run serve`.',
  );
  process.exit(1);
}
const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
