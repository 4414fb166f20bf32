// deno run -A --unstable-kv sequence.ts <db file> <label> <n>
// Writes n entries ["turn", label, i] and prints their versionstamps as a JSON array.
const [file, label, n] = Deno.args;
const kv = await Deno.openKv(file);
const stamps: string[] = [];
for (let i = 0; i < Number(n); i++) {
  stamps.push((await kv.set(["turn", label, i], { label, i })).versionstamp);
}
kv.close();
console.log(JSON.stringify(stamps));
