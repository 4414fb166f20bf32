// Drives the JavaScript @alanshaw/pail 0.3.4 for Kvasir's differential test and benchmark.
// Usage: node driver.mjs <node_modules dir>  (request JSON on stdin, answer JSON on stdout)
//   {"mode":"replay","maxShardSize":n,"sequences":[[{"op":"put"|"del","key","value"}]]}
//     -> per sequence, per step: {root, ok, maxShard, error?}; ok = entries equal a model
//   {"mode":"bench","maxShardSize":n,"keys":[..],"values":[..]}
//     -> {root, putMs, getMs}
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'

const modules = process.argv[2]
const load = (p) => import(pathToFileURL(join(modules, p)).href)
const pail = await load('@alanshaw/pail/src/index.js')
const { ShardBlock } = await load('@alanshaw/pail/src/shard.js')
const { CID } = await load('multiformats/src/cid.js')
const cbor = await load('@ipld/dag-cbor/src/index.js')

// Returns a copy of the bytes on every get, which keeps pail's decode cache from sharing
// one decoded shard between two prefixes (docs/pail.md §4, E1).
class Store {
  constructor () { this.blocks = new Map() }
  async get (cid) {
    const bytes = this.blocks.get(cid.toString())
    return bytes && { cid, bytes: bytes.slice() }
  }
  put (block) { this.blocks.set(block.cid.toString(), block.bytes) }
}

const request = JSON.parse(readFileSync(0, 'utf8'))
const options = { maxShardSize: request.maxShardSize }

async function largestShard (store, root) {
  let largest = 0
  const todo = [root]
  while (todo.length) {
    const cid = todo.pop()
    const bytes = store.blocks.get(cid.toString())
    largest = Math.max(largest, bytes.length)
    for (const [, value] of cbor.decode(bytes)) {
      if (Array.isArray(value)) todo.push(value[0])
    }
  }
  return largest
}

async function matchesModel (store, root, model) {
  const expected = [...model.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const got = []
  for await (const [k, v] of pail.entries(store, root)) got.push([k, v.toString()])
  return JSON.stringify(got) === JSON.stringify(expected)
}

async function replay (ops) {
  const store = new Store()
  const empty = await ShardBlock.create()
  store.put(empty)
  let root = empty.cid
  const model = new Map()
  const out = []
  for (const op of ops) {
    const step = {}
    try {
      const res = op.op === 'put'
        ? await pail.put(store, root, op.key, CID.parse(op.value), options)
        : await pail.del(store, root, op.key)
      for (const b of res.additions) store.put(b)
      root = res.root
      if (op.op === 'put') model.set(op.key, op.value)
      else model.delete(op.key)
    } catch (e) {
      step.error = e.message
    }
    step.root = root.toString()
    step.ok = await matchesModel(store, root, model)
    step.maxShard = await largestShard(store, root)
    out.push(step)
  }
  return out
}

async function bench ({ keys, values }) {
  const store = new Store()
  const empty = await ShardBlock.create()
  store.put(empty)
  let root = empty.cid
  const cids = values.map((v) => CID.parse(v))
  let t = performance.now()
  for (let i = 0; i < keys.length; i++) {
    const res = await pail.put(store, root, keys[i], cids[i], options)
    for (const b of res.additions) store.put(b)
    for (const b of res.removals) store.blocks.delete(b.cid.toString())
    root = res.root
  }
  const putMs = performance.now() - t
  t = performance.now()
  for (const key of keys) {
    if (!(await pail.get(store, root, key))) throw new Error('lost ' + key)
  }
  return { root: root.toString(), putMs, getMs: performance.now() - t }
}

const answer = request.mode === 'bench'
  ? await bench(request)
  : await Promise.all(request.sequences.map(replay))
process.stdout.write(JSON.stringify(answer))
