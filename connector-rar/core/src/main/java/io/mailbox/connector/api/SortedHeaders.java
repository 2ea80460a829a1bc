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
 * A message's headers: names sorted (as {@link String#compareTo}), held in one array of name and
 * value pairs.
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

  /** The builder's side: a copy-on-write array, shared with the last message built from it. */
  static final class Writable {
    private String[] entries; // name, value, name, value, ... sorted by name
    private int size;
    private boolean shared;

    Writable() {
      this(NONE, 0, false);
    }

    private Writable(String[] entries, int size, boolean shared) {
      this.entries = entries;
      this.size = size;
      this.shared = shared;
    }

    /** A writable set sharing {@code view}'s array: nothing is copied until the first write. */
    static Writable of(View view) {
      return new Writable(view.entries, view.size, true);
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
      int at = search(entries, size, name);
      if (at >= 0) {
        if (!value.equals(entries[2 * at + 1])) {
          ownArray(0);
          entries[2 * at + 1] = value;
        }
        return;
      }
      int insertAt = -at - 1;
      ownArray(1);
      System.arraycopy(entries, 2 * insertAt, entries, 2 * insertAt + 2, 2 * (size - insertAt));
      entries[2 * insertAt] = name;
      entries[2 * insertAt + 1] = value;
      size++;
    }

    void remove(String name) {
      int at = search(entries, size, name);
      if (at < 0) {
        return;
      }
      ownArray(0);
      System.arraycopy(entries, 2 * at + 2, entries, 2 * at, 2 * (size - at - 1));
      size--;
      entries[2 * size] = null;
      entries[2 * size + 1] = null;
    }

    /** The read-only view for a message; the array is shared until this builder writes again. */
    View handOver() {
      shared = true;
      return size == 0 ? View.EMPTY : new View(entries, size);
    }

    // Before a write: an array of our own (when shared) with room for {@code more} entries, and
    // two to spare (a stamp usually writes two headers: one copy, not two).
    private void ownArray(int more) {
      int needed = size + more;
      if (!shared && 2 * needed <= entries.length) {
        return;
      }
      entries = Arrays.copyOf(entries, 2 * (needed + 2));
      shared = false;
    }
  }

  /** The read-only, name-ordered map of one message's headers. */
  static final class View extends AbstractMap<String, String> implements Serializable {
    private static final long serialVersionUID = 1L;
    static final View EMPTY = new View(NONE, 0);

    // Only the first size pairs count; a builder may have grown the array for later writes,
    // never touching these pairs without copying first.
    private final String[] entries;
    private final int size;

    private View(String[] entries, int size) {
      this.entries = entries;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public String get(Object name) {
      int at = indexOf(name);
      return at >= 0 ? entries[2 * at + 1] : null;
    }

    @Override
    public boolean containsKey(Object name) {
      return indexOf(name) >= 0;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super String> action) {
      for (int i = 0; i < size; i++) {
        action.accept(entries[2 * i], entries[2 * i + 1]);
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
              return new SimpleImmutableEntry<>(entries[2 * at], entries[2 * at + 1]);
            }
          };
        }
      };
    }

    private int indexOf(Object name) {
      return name instanceof String text ? search(entries, size, text) : -1;
    }
  }

  /** Binary search of the names (even slots); as {@link Arrays#binarySearch} it returns. */
  private static int search(String[] entries, int size, String name) {
    int low = 0;
    int high = size - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order = entries[2 * middle].compareTo(name);
      if (order < 0) {
        low = middle + 1;
      } else if (order > 0) {
        high = middle - 1;
      } else {
        return middle;
      }
    }
    return -(low + 1);
  }
}
