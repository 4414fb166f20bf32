// deno run -A --unstable-kv deep.ts write|verify <db file or URL>
// Values nested nearly as deep as Deno 2.9.6 writes and reads them back (docs/values.md §8),
// under ["deep", kind]; the same values as the testkit's DeepValues. Prints "ok".
const DEPTHS: Record<string, number> = { array: 3500, object: 2600, set: 4900, map: 4600 };
const wrap: Record<string, (v: unknown) => unknown> = {
  array: (v) => [v],
  object: (v) => ({ a: v }),
  set: (v) => new Set([v]),
  map: (v) => new Map([[1, v]]),
};
const inner: Record<string, (v: any) => unknown> = {
  array: (v) => v.length === 1 ? v[0] : undefined,
  object: (v) => Object.keys(v).length === 1 ? v.a : undefined,
  set: (v) => v.size === 1 ? [...v][0] : undefined,
  map: (v) => v.size === 1 ? v.get(1) : undefined,
};
const [mode, target] = Deno.args;
const kv = await Deno.openKv(target);
for (const [kind, depth] of Object.entries(DEPTHS)) {
  if (mode === "write") {
    let v: unknown = 7;
    for (let i = 0; i < depth; i++) v = wrap[kind](v);
    await kv.set(["deep", kind], v);
  } else {
    let v: any = (await kv.get(["deep", kind])).value;
    for (let i = 0; i < depth; i++) {
      const kindOf = Array.isArray(v) ? "array" : v instanceof Set ? "set"
        : v instanceof Map ? "map" : typeof v === "object" && v !== null ? "object" : typeof v;
      if (kindOf !== kind) throw new Error(`${kind}: level ${i} is ${kindOf}`);
      v = inner[kind](v);
    }
    if (v !== 7) throw new Error(`${kind}: innermost value ${v}`);
  }
}
kv.close();
console.log("ok");
