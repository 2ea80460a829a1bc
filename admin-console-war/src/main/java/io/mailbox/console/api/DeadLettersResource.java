package io.mailbox.console.api;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.ejb.operations.DeadLetterReplay;
import io.mailbox.ejb.operations.MailboxOperations;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.util.List;

/** Dead letters: which addresses hold them, what they are, and replaying them. */
@Path("deadletters")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DeadLettersResource {
  @EJB MailboxOperations operations;

  /** The dead-letter addresses among the known addresses. */
  @GET
  public JsonObject addresses() {
    JsonArrayBuilder addresses = Json.createArrayBuilder();
    operations.deadLetterAddresses().forEach(addresses::add);
    return Json.createObjectBuilder().add("addresses", addresses).build();
  }

  /**
   * The records of one dead-letter address, optionally only those whose reason is {@code reason}
   * and whose error, source or id contains {@code q}.
   */
  @GET
  @Path("records")
  public JsonObject records(
      @QueryParam("address") String address,
      @QueryParam("reason") String reason,
      @QueryParam("q") String text,
      @QueryParam("limit") String limit) {
    List<MailMessage> records =
        operations.peek(Requests.required("address", address), Requests.limit(limit, 100)).stream()
            .filter(r -> DeadLetterFilter.matches(r, reason, text))
            .toList();
    JsonArrayBuilder array = Json.createArrayBuilder();
    for (MailMessage record : records) {
      array.add(
          Json.createObjectBuilder(JsonViews.message(record))
              .add("reason", record.header(SystemHeaders.DEAD_LETTER_REASON).orElse(""))
              .add("source", record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse(""))
              .add("error", record.header(SystemHeaders.DEAD_LETTER_ERROR).orElse(""))
              .add("replayCount", DeadLetterReplay.replayCount(record)));
    }
    return Json.createObjectBuilder().add("records", array).build();
  }

  /**
   * Replays records by key to where they were given up: {@code {"address": "...", "keys": [...],
   * "perSecond": 50}} (rate 1–1000 a second, default 50; at most 1000 keys a call).
   */
  @POST
  @Path("replay")
  @Consumes(MediaType.APPLICATION_JSON)
  public JsonObject replay(InputStream body) {
    String expected = "{\"address\": \"...\", \"keys\": [...], \"perSecond\": 50}";
    JsonObject request = Requests.object(body, expected);
    List<String> keys = Requests.strings(request, "keys", "records", expected);
    String address = Requests.string(request, "address", expected);
    int perSecond = Requests.integer(request, "perSecond", 50, 1, 1000);
    MailboxOperations.ReplayResult result = operations.replay(address, keys, perSecond, done -> {});
    return Json.createObjectBuilder()
        .add("requested", result.requested())
        .add("replayed", result.replayed())
        .add("notRemoved", result.notRemoved())
        .add("missing", result.missing())
        .add("failed", result.failed())
        .build();
  }
}
