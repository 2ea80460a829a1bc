package io.mailbox.console.api;

import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.ejb.metrics.PrometheusText;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * The per-address and per-provider metrics as Prometheus text, on every server (WildFly 37 has no
 * MicroProfile Metrics): scrape {@code /console/api/metrics} with a viewer's basic credentials.
 */
@Path("metrics")
@RequestScoped
public class MetricsResource {
  @Inject ServerMetrics metrics;

  @GET
  public Response metrics() {
    return Response.ok(PrometheusText.render(metrics.current()))
        .type(PrometheusText.CONTENT_TYPE)
        .build();
  }
}
