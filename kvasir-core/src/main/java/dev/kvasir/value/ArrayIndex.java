package dev.kvasir.value;

/** JS array indices: the property keys V8 writes as numbers and orders first. */
final class ArrayIndex {
  /** The largest array index, 2^32 − 2. */
  static final long MAX = 0xfffffffeL;

  private ArrayIndex() {}

  /** The index a property key denotes ("0", "17", never "01" or "-1"), or −1 if none. */
  static long parse(String key) {
    int n = key.length();
    if (n == 0 || n > 10 || (n > 1 && key.charAt(0) == '0')) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value <= MAX ? value : -1;
  }
}
