// deno run -A --unstable-kv cas.ts <db file> <n>
// Adds 1 to the KvU64 at ["counter", "shared"] n times by check-and-set. Deno reports lock
// contention from another process as "database is locked" (docs/sqlite.md §2); retry.
const [file, n] = Deno.args;
const kv = await Deno.openKv(file);
const key = ["counter", "shared"];
for (let i = 0; i < Number(n); i++) {
  while (true) {
    try {
      const e = await kv.get<Deno.KvU64>(key);
      const next = new Deno.KvU64((e.value?.value ?? 0n) + 1n);
      if ((await kv.atomic().check(e).set(key, next).commit()).ok) break;
    } catch (err) {
      if (!String(err).includes("database is locked")) throw err;
    }
  }
}
kv.close();
console.log("done");
