// Installs the JavaScript programs the interop tests run against (Deno, the @deno/kv Node
// client, the JavaScript pail) from the npm registry into a cache shared by every build:
//
//   node install-peers.mjs <cache dir> <package@version>...
//
// Each package goes to <cache dir>/<name>-<version>, the name without '@' and with '/' as '-'
// (@deno/kv@0.14.0 -> deno-kv-0.14.0), which is where dev.kvasir.testkit.NpmPeer looks for it. A package already
// there is left alone without touching the network, so a build is offline-safe once the cache
// is warm. An install goes into a temporary directory first and is moved into place only
// when npm succeeded, so an interrupted install never looks like a finished one.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [cache, ...packages] = process.argv.slice(2)
if (!cache || packages.length === 0) {
  console.error('usage: node install-peers.mjs <cache dir> <package@version>...')
  process.exit(2)
}

// The file that marks a finished install (written last).
const MARKER = '.kvasir-installed'

for (const spec of packages.flatMap((p) => p.split(/\s+/)).filter(Boolean)) {
  const at = spec.lastIndexOf('@')
  if (at <= 0) {
    console.error(`install-peers: '${spec}' is not of the form name@version`)
    process.exit(2)
  }
  const name = spec.slice(0, at)
  const version = spec.slice(at + 1)
  const target = join(cache, `${name.replace(/^@/, '').replace('/', '-')}-${version}`)
  if (existsSync(join(target, MARKER))) {
    console.log(`install-peers: ${spec} is cached in ${target}`)
    continue
  }
  console.log(`install-peers: installing ${spec} from npm into ${target}`)
  mkdirSync(cache, { recursive: true })
  const temporary = `${target}.partial-${process.pid}`
  rmSync(temporary, { recursive: true, force: true })
  mkdirSync(temporary, { recursive: true })
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save',
    '--prefix', temporary, spec], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (npm.error || npm.status !== 0) {
    rmSync(temporary, { recursive: true, force: true })
    const why = npm.error ? npm.error.message : `npm exited with ${npm.status}`
    console.error(`install-peers: could not install ${spec} (${why}). The interop tests need`
      + ' it; run the build with -DskipInterop to build without them.')
    process.exit(1)
  }
  writeFileSync(join(temporary, MARKER), `${spec}\n`)
  rmSync(target, { recursive: true, force: true })
  renameSync(temporary, target)
}
