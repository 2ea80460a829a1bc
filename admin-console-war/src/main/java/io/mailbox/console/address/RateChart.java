package io.mailbox.console.address;

import io.mailbox.console.metrics.RateHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The address's posted and delivered rates over the last ten minutes as an SVG (no chart library):
 * two lines on a time axis ending now, scaled to the larger rate, with the scale and a legend.
 */
final class RateChart {
  static final int WIDTH = 640;
  static final int HEIGHT = 140;
  private static final int LEFT = 56;
  private static final int TOP = 14;
  private static final int BOTTOM = 22;
  static final String POSTED_COLOR = "#1676f3";
  static final String DELIVERED_COLOR = "#1a8a3c";
  private static final Duration READING = Duration.ofSeconds(5);

  private RateChart() {}

  /** The SVG as an image source. */
  static String dataUri(List<RateHistory.Point> points, Instant now, Duration window) {
    return "data:image/svg+xml;base64,"
        + java.util.Base64.getEncoder()
            .encodeToString(
                svg(points, now, window).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static String svg(List<RateHistory.Point> points, Instant now, Duration window) {
    double max =
        points.stream()
            .mapToDouble(p -> Math.max(p.postedPerSecond(), p.deliveredPerSecond()))
            .max()
            .orElse(0);
    double top = max <= 0 ? 1 : niceCeiling(max);
    int plotWidth = WIDTH - LEFT - 8;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    StringBuilder svg = new StringBuilder();
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                    + " font-family=\"sans-serif\" font-size=\"11\">",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT))
        .append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>",
                LEFT,
                TOP,
                plotWidth,
                plotHeight))
        .append(label(LEFT - 4, TOP + 4, "end", perSecond(top)))
        .append(label(LEFT - 4, TOP + plotHeight, "end", "0/s"))
        .append(label(LEFT, HEIGHT - 6, "start", "-" + window.toMinutes() + " min"))
        .append(label(LEFT + plotWidth, HEIGHT - 6, "end", "now"))
        .append(label(LEFT + 8, TOP - 3, "start", "posted").replace("#555", POSTED_COLOR))
        .append(label(LEFT + 60, TOP - 3, "start", "delivered").replace("#555", DELIVERED_COLOR));
    Instant start = now.minus(window);
    svg.append(line(points, RateHistory.Point::postedPerSecond, POSTED_COLOR, start, window, top))
        .append(
            line(
                points, RateHistory.Point::deliveredPerSecond, DELIVERED_COLOR, start, window, top))
        .append("</svg>");
    return svg.toString();
  }

  private static String line(
      List<RateHistory.Point> points,
      ToDoubleFunction<RateHistory.Point> rate,
      String color,
      Instant start,
      Duration window,
      double top) {
    if (points.isEmpty()) {
      return "";
    }
    int plotWidth = WIDTH - LEFT - 8;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    StringBuilder xy = new StringBuilder();
    // Steps: each rate holds over its reading's interval (from the reading before; the first one
    // is drawn over the usual 5 s), so a single reading is a visible segment, not a lone vertex.
    Instant from = points.get(0).at().minus(READING);
    for (RateHistory.Point point : points) {
      double y = TOP + plotHeight - rate.applyAsDouble(point) / top * plotHeight;
      for (Instant at : new Instant[] {from, point.at()}) {
        double along = Duration.between(start, at).toMillis() / (double) window.toMillis();
        double x = LEFT + Math.max(0, Math.min(1, along)) * plotWidth;
        xy.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      from = point.at();
    }
    // Delivered dashed: where it equals posted (a consumer keeping up), both stay visible.
    String dash = color.equals(DELIVERED_COLOR) ? "\" stroke-dasharray=\"6,4" : "";
    return "<polyline fill=\"none\" stroke=\""
        + color
        + dash
        + "\" stroke-width=\"2\" points=\""
        + xy.toString().strip()
        + "\"/>";
  }

  private static String label(int x, int y, String anchor, String text) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" fill=\"#555\">%s</text>",
        x,
        y,
        anchor,
        text);
  }

  /** The scale's top: 1, 2 or 5 times a power of ten, at least {@code max}. */
  static double niceCeiling(double max) {
    double power = Math.pow(10, Math.floor(Math.log10(max)));
    for (double step : new double[] {1, 2, 5, 10}) {
      if (step * power >= max) {
        return step * power;
      }
    }
    return 10 * power;
  }

  /** "12/s", "0.5/s", "1500/s". */
  static String perSecond(double rate) {
    return (rate >= 10 || rate == Math.rint(rate)
            ? String.format(Locale.ROOT, "%.0f", rate)
            : String.format(Locale.ROOT, "%.2f", rate).replaceAll("0+$", ""))
        + "/s";
  }

  /** "posted 3.2/s · delivered 3.0/s (last 5 s)", or that nothing was measured yet. */
  static String now(List<RateHistory.Point> points) {
    if (points.isEmpty()) {
      return "Rates: measured from the second reading (every 5 s) after the address's first traffic.";
    }
    RateHistory.Point last = points.get(points.size() - 1);
    return String.format(
        Locale.ROOT,
        "Now: posted %.1f/s · delivered %.1f/s (over the last reading's interval)",
        last.postedPerSecond(),
        last.deliveredPerSecond());
  }
}
