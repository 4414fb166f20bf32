// Rebuilds the JS values and keys that vectors/denokv/values.json and keys.json describe (the
// same schema the Java side reads in ValueDescriptions), so Deno can write them and compare.

// deno-lint-ignore-file no-explicit-any
type Desc = any;

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function number(hex: string): number {
  return new DataView(hexBytes(hex).buffer).getFloat64(0, false);
}

function arrayIndex(key: string): number {
  if (!/^(0|[1-9][0-9]{0,9})$/.test(key)) return -1;
  const v = Number(key);
  return v <= 0xfffffffe ? v : -1;
}

/**
 * The JS value of a description. With {@code asRead}, the value as a read returns it: a
 * null-prototype object comes back as a plain object (the format does not keep prototypes).
 */
export function buildValue(top: Desc, asRead = false): unknown {
  if (top.t === "KvU64") return new Deno.KvU64(BigInt(top.v));
  const byId = new Map<string, unknown>();
  const defs = top.defs ?? {};
  const register = (d: Desc, o: unknown) => {
    if (d.id !== undefined) byId.set(String(d.id), o);
    return o;
  };
  const ref = (id: string): unknown => {
    if (!byId.has(id)) {
      if (defs[id] === undefined) throw new Error("unresolved reference " + id);
      byId.set(id, build(defs[id]));
    }
    return byId.get(id);
  };
  const build = (d: Desc): unknown => {
    switch (d.t) {
      case "undefined": return undefined;
      case "null": return null;
      case "boolean": return d.v;
      case "number": return number(d.hex);
      case "bigint": return BigInt(d.v);
      case "string": return d.v;
      case "array": {
        if (d.items) {
          const a: unknown[] = register(d, []) as unknown[];
          d.items.forEach((item: Desc, i: number) => {
            if (item.t === "hole") a.length = i + 1; else a.push(build(item));
          });
          a.length = d.items.length;
          for (const [name, v] of d.props ?? []) (a as any)[name] = build(v);
          return a;
        }
        const a = register(d, new Array(d.length)) as any;
        for (const [k, v] of d.entries) a[k] = build(v);
        return a;
      }
      case "object": {
        const o: any = register(d, d.nullProto && !asRead ? Object.create(null) : {});
        for (const [k, v] of d.entries) o[k] = build(v);
        return o;
      }
      case "map": {
        const m = register(d, new Map()) as Map<unknown, unknown>;
        for (const [k, v] of d.entries) m.set(build(k), build(v));
        return m;
      }
      case "set": {
        const s = register(d, new Set()) as Set<unknown>;
        for (const v of d.items) s.add(build(v));
        return s;
      }
      case "date": return new Date(d.ms === "NaN" ? NaN : d.ms);
      case "regexp": return new RegExp(d.source, d.flags);
      case "Uint8Array": return hexBytes(d.hex);
      case "typedarray": {
        const buffer = d.bufferHex !== undefined
          ? hexBytes(d.bufferHex).buffer : ref(String(d.bufferRef)) as ArrayBuffer;
        const ctor = (globalThis as any)[d.kind];
        return new ctor(buffer, d.byteOffset, d.length);
      }
      case "ArrayBuffer": {
        const bytes = hexBytes(d.hex);
        const buffer = d.maxByteLength !== undefined
          ? new (ArrayBuffer as any)(bytes.length, { maxByteLength: d.maxByteLength })
          : new ArrayBuffer(bytes.length);
        new Uint8Array(buffer).set(bytes);
        return register(d, buffer);
      }
      case "KvU64": return { value: BigInt(d.v) };
      case "boxed": return Object(build(d.value));
      case "ref": return ref(String(d.id));
      case "shared": {
        const element = build(d.value);
        return Array.from({ length: d.count }, () => element);
      }
      case "error": {
        const ctor = (globalThis as any)[d.name];
        const e = d.cause !== undefined ? new ctor(d.message, { cause: build(d.cause) })
          : new ctor(d.message);
        if (d.stack === null) delete e.stack; else e.stack = d.stack;
        return e;
      }
      default: throw new Error("unknown description " + JSON.stringify(d));
    }
  };
  return build(top);
}

export function buildKey(parts: Desc[]): Deno.KvKey {
  return parts.map((p) => {
    switch (p.type) {
      case "string": {
        const units = p.utf16_hex.match(/.{4}/g) ?? [];
        return String.fromCharCode(...units.map((u: string) => parseInt(u, 16)));
      }
      case "bytes": return hexBytes(p.hex);
      case "number": return number(p.hex);
      case "bigint": return BigInt(p.value);
      case "boolean": return p.value;
      default: throw new Error("unknown key part " + JSON.stringify(p));
    }
  });
}

export async function load(dir: string) {
  const values = JSON.parse(await Deno.readTextFile(dir + "/values.json")).values;
  const keys = JSON.parse(await Deno.readTextFile(dir + "/keys.json")).keys;
  return { values, keys };
}
