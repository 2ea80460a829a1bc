package io.mailbox.console.api;

import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.ejb.alerts.AlertRule;
import io.mailbox.ejb.alerts.AlertState;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * The alert rules (read only: they are settings) and their active breaches as the server's metrics
 * last read them (every 5 s), oldest rule first; {@code limit} bounds the breaches listed, {@code
 * activeCount} counts them all.
 */
@Path("alerts")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AlertsResource {
  @Inject ServerMetrics metrics;

  @GET
  public JsonObject alerts(@QueryParam("limit") String limit) {
    AlertState.Report report = metrics.alerts();
    List<AlertState.Active> active = report.active();
    List<AlertState.Active> shown =
        active.subList(0, Math.min(active.size(), Requests.limit(limit, 100)));
    return Json.createObjectBuilder()
        .add("takenAt", report.takenAt().toString())
        .add("rules", JsonViews.array(report.rules(), AlertsResource::rule))
        .add("activeCount", active.size())
        .add("active", JsonViews.array(shown, AlertsResource::breach))
        .add("begun", counts(report.begun()))
        .build();
  }

  private static JsonObject rule(AlertRule rule) {
    JsonObjectBuilder limits = Json.createObjectBuilder();
    rule.limits().forEach((measure, value) -> limits.add(measure.key(), value));
    return Json.createObjectBuilder()
        .add("name", rule.name())
        .add("addresses", rule.addresses())
        .add("limits", limits)
        .build();
  }

  private static JsonObject breach(AlertState.Active active) {
    return Json.createObjectBuilder()
        .add("rule", active.breach().rule())
        .add("address", active.breach().address())
        .add("measure", active.breach().measure().key())
        .add("value", active.breach().value())
        .add("limit", active.breach().limit())
        .add("since", active.since().toString())
        .build();
  }

  private static JsonObject counts(Map<String, Long> byRule) {
    JsonObjectBuilder counts = Json.createObjectBuilder();
    byRule.forEach(counts::add);
    return counts.build();
  }
}
