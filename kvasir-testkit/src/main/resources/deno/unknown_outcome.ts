// DENO_KV_ACCESS_TOKEN=… deno run -A --unstable-kv unknown_outcome.ts <url>
// One sum of 1 to ["n"]; prints "committed" when the commit reports success, else the error
// Deno raises. A server that cannot tell whether it applied the sum must not make Deno retry it.
const [url] = Deno.args;
const kv = await Deno.openKv(url);
try {
  await kv.atomic().sum(["n"], 1n).commit();
  console.log("committed");
} catch (e) {
  console.log(`error: ${(e as Error).message}`);
}
kv.close();
