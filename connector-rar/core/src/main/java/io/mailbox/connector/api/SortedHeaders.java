package io.mailbox.connector.api;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A message's headers: names sorted (as {@link String#compareTo}), held in two parallel arrays.
 *
 * <p>Why not a {@code TreeMap}: every copy the kernel stamps (send boundary, hand-out, each
 * delivery attempt) used to rebuild a tree of a dozen nodes, which was half of the kernel's
 * allocation per message. A message has few headers, so a binary search over an array is as fast as
 * a tree, and a builder made from a message shares the message's arrays until its first write,
 * which copies them once.
 *
 * <p>{@link View} is the read-only map a message hands out; {@link Writable} is the builder's.
 */
final class SortedHeaders {
  private static final String[] NONE = new String[0];

  private SortedHeaders() {}

  /** The builder's side: copy-on-write arrays, shared with the last message built from them. */
  static final class Writable {
    private String[] names;
    private String[] values;
    private int size;
    private boolean shared;

    Writable() {
      this(NONE, NONE, 0, false);
    }

    private Writable(String[] names, String[] values, int size, boolean shared) {
      this.names = names;
      this.values = values;
      this.size = size;
      this.shared = shared;
    }

    /** A writable set sharing {@code view}'s arrays: nothing is copied until the first write. */
    static Writable of(View view) {
      return new Writable(view.names, view.values, view.size, true);
    }

    /** Copies {@code headers} (any map) in name order. */
    static Writable copyOf(Map<String, String> headers) {
      if (headers instanceof View view) {
        return of(view);
      }
      Writable writable = new Writable();
      headers.forEach(writable::put);
      return writable;
    }

    void put(String name, String value) {
      int at = Arrays.binarySearch(names, 0, size, name);
      if (at >= 0) {
        if (!value.equals(values[at])) {
          ownArrays(0);
          values[at] = value;
        }
        return;
      }
      int insertAt = -at - 1;
      ownArrays(1);
      System.arraycopy(names, insertAt, names, insertAt + 1, size - insertAt);
      System.arraycopy(values, insertAt, values, insertAt + 1, size - insertAt);
      names[insertAt] = name;
      values[insertAt] = value;
      size++;
    }

    void remove(String name) {
      int at = Arrays.binarySearch(names, 0, size, name);
      if (at < 0) {
        return;
      }
      ownArrays(0);
      System.arraycopy(names, at + 1, names, at, size - at - 1);
      System.arraycopy(values, at + 1, values, at, size - at - 1);
      size--;
      names[size] = null;
      values[size] = null;
    }

    /** The read-only view for a message; the arrays are shared until this builder writes again. */
    View handOver() {
      shared = true;
      return size == 0 ? View.EMPTY : new View(names, values, size);
    }

    // Before a write: arrays of our own (when shared) with room for {@code more} entries.
    private void ownArrays(int more) {
      int needed = size + more;
      if (!shared && needed <= names.length) {
        return;
      }
      int capacity = Math.max(needed + 2, 8);
      names = Arrays.copyOf(names, capacity);
      values = Arrays.copyOf(values, capacity);
      shared = false;
    }
  }

  /** The read-only, name-ordered map of one message's headers. */
  static final class View extends AbstractMap<String, String> implements Serializable {
    private static final long serialVersionUID = 1L;
    static final View EMPTY = new View(NONE, NONE, 0);

    // Only the first size entries count; a builder may have grown the arrays for later writes,
    // never touching these entries without copying first.
    private final String[] names;
    private final String[] values;
    private final int size;

    private View(String[] names, String[] values, int size) {
      this.names = names;
      this.values = values;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public String get(Object name) {
      int at = indexOf(name);
      return at >= 0 ? values[at] : null;
    }

    @Override
    public boolean containsKey(Object name) {
      return indexOf(name) >= 0;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super String> action) {
      for (int i = 0; i < size; i++) {
        action.accept(names[i], values[i]);
      }
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return size;
        }

        @Override
        public Iterator<Entry<String, String>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < size;
            }

            @Override
            public Entry<String, String> next() {
              if (next >= size) {
                throw new NoSuchElementException();
              }
              int at = next++;
              return new SimpleImmutableEntry<>(names[at], values[at]);
            }
          };
        }
      };
    }

    private int indexOf(Object name) {
      return name instanceof String text ? Arrays.binarySearch(names, 0, size, text) : -1;
    }
  }
}
