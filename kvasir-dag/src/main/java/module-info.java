/** KV/DAG: CIDs, strict DAG-CBOR, block stores, CAR files and pails. JDK only. */
module dev.kvasir.dag {
  exports dev.kvasir.dag;
  exports dev.kvasir.dag.cbor;
  exports dev.kvasir.dag.cid;
  exports dev.kvasir.dag.store;
}
