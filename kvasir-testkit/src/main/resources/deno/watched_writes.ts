// deno run -A --unstable-kv watched_writes.ts <db file> <n>
// Sets ["w"] to {i, sentAt} n times, 50 ms apart, then ["e"] to expire in 1 s.
const [file, n] = Deno.args;
const kv = await Deno.openKv(file);
for (let i = 0; i < Number(n); i++) {
  await new Promise((r) => setTimeout(r, 50));
  await kv.set(["w"], { i, sentAt: Date.now() });
}
await kv.set(["e"], "soon gone", { expireIn: 1000 });
kv.close();
console.log("done");
