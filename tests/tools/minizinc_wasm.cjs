// Runs the MiniZinc command line of the npm package `minizinc` (MiniZinc's WebAssembly build: today's
// release with Gecode, Chuffed, COIN-BC and HiGHS, which neither PyPI nor Debian carries) under Node.
//
//   node minizinc_wasm.cjs DIST FILE... -- MINIZINC-ARGS...
//
// DIST is the package's dist folder; each FILE is copied into the program's working folder under its base
// name; what MiniZinc prints goes to stdout and stderr, and its exit status is ours. The package's worker
// script is written for a browser's Web Worker: it runs here with the globals it expects (a message
// listener and postMessage); its first message loads the WebAssembly files from DIST, the second runs the
// command line. One run a process: a second run in the same process reads its command line wrongly now
// and then ("Unrecognized option"), so a run costs the module's compile (~3 s of CPU).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const argv = process.argv.slice(2);
const cut = argv.indexOf('--');
if (argv.length < 2 || cut < 1) {
  process.stderr.write('usage: node minizinc_wasm.cjs DIST FILE... -- MINIZINC-ARGS...\n');
  process.exit(2);
}
const dist = path.resolve(argv[0]);
const files = {};
for (const f of argv.slice(1, cut)) files[path.basename(f)] = fs.readFileSync(f, 'utf8');
const args = argv.slice(cut + 1);

let listener = null;
globalThis.require = require;   // the Emscripten loader reads the .wasm and .data files with fs
globalThis.__dirname = dist;
globalThis.__filename = path.join(dist, 'minizinc-worker.js');
globalThis.addEventListener = (type, fn) => { if (type === 'message') listener = fn; };
globalThis.postMessage = (msg) => {
  if (msg.type === 'ready') {
    listener({data: {files, args, jsonStream: false}});
  } else if (msg.type === 'exit') {
    process.stdout.write(msg.stdout || '');
    process.stderr.write((msg.stderr || '') + (msg.message ? msg.message + '\n' : ''));
    // exit at once: the Emscripten runtime keeps Node's event loop alive after the run
    process.exit(msg.code === 0 ? 0 : (msg.code > 0 ? msg.code : 1));
  }
};
vm.runInThisContext(fs.readFileSync(globalThis.__filename, 'utf8'), {filename: globalThis.__filename});
listener({data: {wasmURL: path.join(dist, 'minizinc.wasm'), dataURL: path.join(dist, 'minizinc.data')}});
