package io.mailbox.console.dashboard;

import java.util.List;
import java.util.Locale;

/** A tiny SVG line of a series of counts (free: no chart library), scaled to its own maximum. */
final class Sparkline {
  static final int WIDTH = 90;
  static final int HEIGHT = 18;

  private Sparkline() {}

  /**
   * The SVG as an image source: an {@code <img>} renders it (SVG markup added as HTML would not).
   */
  static String dataUri(List<Long> values) {
    return "data:image/svg+xml;base64,"
        + java.util.Base64.getEncoder()
            .encodeToString(svg(values).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The SVG markup; a flat line at the bottom for an empty or all-zero series. */
  static String svg(List<Long> values) {
    StringBuilder points = new StringBuilder();
    long max = values.stream().mapToLong(Long::longValue).max().orElse(0);
    int n = values.size();
    for (int i = 0; i < n; i++) {
      double x = n == 1 ? WIDTH : (double) i * WIDTH / (n - 1);
      double y = max == 0 ? HEIGHT - 1 : (HEIGHT - 1) - (double) values.get(i) * (HEIGHT - 2) / max;
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
    }
    if (n == 0) {
      points.append("0," + (HEIGHT - 1) + " " + WIDTH + "," + (HEIGHT - 1));
    } else if (n == 1) {
      // One sample so far: a level line, so the column is never blank.
      points.setLength(0);
      double y = max == 0 ? HEIGHT - 1 : 1;
      points.append(String.format(Locale.ROOT, "0.0,%.1f %d.0,%.1f", y, WIDTH, y));
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        + WIDTH
        + "\" height=\""
        + HEIGHT
        + "\" viewBox=\"0 0 "
        + WIDTH
        + " "
        + HEIGHT
        + "\"><polyline fill=\"none\" stroke=\"#1676f3\" stroke-width=\"1.5\" points=\""
        + points.toString().strip()
        + "\"/></svg>";
  }
}
