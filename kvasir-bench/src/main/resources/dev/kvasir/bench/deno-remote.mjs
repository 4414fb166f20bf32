// The harness's own workloads (js/workloads.mjs in the directory the harness runs peers from)
// in Deno, against the KV Connect server at KVASIR_URL: the deno-remote peer (DenoRemotePeer).
const { main } = await import(new URL("js/workloads.mjs", `file://${Deno.cwd()}/`).href);
const code = await main(
  Deno.args,
  (_dir) => Deno.openKv(Deno.env.get("KVASIR_URL")),
  {
    peer: "deno-remote",
    runtime: `deno ${Deno.version.deno}`,
    lib: "Deno.openKv over KV Connect to Kvasir's KvServer on the sqlite engine",
    durability: "WAL, synchronous=FULL, group commit on the server; acknowledged after fsync",
  },
);
Deno.exit(code);
