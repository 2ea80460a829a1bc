package io.mailbox.console.api;

import io.mailbox.connector.api.RecoverResult;
import io.mailbox.console.metrics.RateHistory;
import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.ejb.operations.MailboxOperations;
import io.mailbox.ejb.operations.MessageOperations;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;

/** Every mailbox at a glance, one mailbox, and what an operator does to one. */
@Path("")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AddressesResource {
  @EJB MailboxOperations operations;
  @EJB MessageOperations messages;
  @jakarta.inject.Inject ServerMetrics metrics;

  /** The status of every address of every provider. */
  @GET
  @Path("snapshot")
  public JsonObject snapshot() {
    return JsonViews.snapshot(operations.snapshot());
  }

  /** One address ({@code ?address=jdbc:orders@shop/placed}). */
  @GET
  @Path("addresses")
  public JsonObject status(@QueryParam("address") String address) {
    return JsonViews.status(operations.status(Requests.required("address", address)));
  }

  /** Returns the address's expired leases to its queue. */
  @POST
  @Path("addresses/recover")
  public JsonObject recover(@QueryParam("address") String address) {
    RecoverResult result = operations.recover(Requests.required("address", address));
    return Json.createObjectBuilder()
        .add("supported", result.supported())
        .add("reclaimed", result.reclaimed())
        .build();
  }

  /** Read-only copies of the queued messages of an address (bounded body previews). */
  @GET
  @Path("addresses/messages")
  public JsonObject messages(
      @QueryParam("address") String address, @QueryParam("limit") String limit) {
    return Json.createObjectBuilder()
        .add(
            "messages",
            JsonViews.array(
                operations.peek(Requests.required("address", address), Requests.limit(limit, 50)),
                JsonViews::message))
        .build();
  }

  /**
   * One queued message in full ({@code ?address=...&key=...}): every header and the whole body;
   * {@code {"found": false}} when it is no longer queued.
   */
  @GET
  @Path("addresses/message")
  public JsonObject message(@QueryParam("address") String address, @QueryParam("key") String key) {
    return messages
        .find(Requests.required("address", address), Requests.required("key", key))
        .map(
            message ->
                Json.createObjectBuilder(JsonViews.message(message))
                    .remove("bodyPreview")
                    .add("found", true)
                    .add("body", message.body())
                    .build())
        .orElseGet(() -> Json.createObjectBuilder().add("found", false).build());
  }

  /**
   * Moves one queued message, body {@code {"address": "...", "key": "...", "target": "..."}}: a
   * copy is posted to the target, then the original removed; audited.
   */
  @POST
  @Path("addresses/messages/move")
  @Consumes(MediaType.APPLICATION_JSON)
  public JsonObject move(InputStream body) {
    String expected = "{\"address\": \"...\", \"key\": \"...\", \"target\": \"...\"}";
    JsonObject request = Requests.object(body, expected);
    MessageOperations.MoveResult moved =
        messages.move(
            Requests.string(request, "address", expected),
            Requests.string(request, "key", expected),
            Requests.string(request, "target", expected));
    JsonObjectBuilder answer =
        Json.createObjectBuilder()
            .add("found", moved.found())
            .add("originalRemoved", moved.originalRemoved());
    if (moved.copyId() != null) {
      answer.add("copyId", moved.copyId());
    }
    return answer.build();
  }

  /** Deletes one queued message ({@code ?address=...&key=...}; the key is required); audited. */
  @DELETE
  @Path("addresses/messages")
  public JsonObject delete(@QueryParam("address") String address, @QueryParam("key") String key) {
    int removed =
        messages.delete(Requests.required("address", address), Requests.required("key", key));
    return Json.createObjectBuilder().add("removed", removed).build();
  }

  /**
   * Posted and delivered per second of one address over the last ten minutes, one point per 5 s
   * reading of the kernel's counters (oldest first; empty before the address's second reading).
   */
  @GET
  @Path("addresses/rates")
  public JsonObject rates(@QueryParam("address") String address) {
    String canonical =
        io.mailbox.connector.api.MailAddress.parse(Requests.required("address", address))
            .toString();
    jakarta.json.JsonArrayBuilder points = Json.createArrayBuilder();
    for (RateHistory.Point point : metrics.rates(canonical)) {
      points.add(
          Json.createObjectBuilder()
              .add("at", point.at().toString())
              .add("postedPerSecond", point.postedPerSecond())
              .add("deliveredPerSecond", point.deliveredPerSecond()));
    }
    return Json.createObjectBuilder()
        .add("address", canonical)
        .add("windowSeconds", RateHistory.WINDOW.toSeconds())
        .add("points", points)
        .build();
  }

  /** The copies handed out under a lease and not settled, with when their lease ends. */
  @GET
  @Path("addresses/leases")
  public JsonObject leases(
      @QueryParam("address") String address, @QueryParam("limit") String limit) {
    java.time.Instant now = java.time.Instant.now();
    jakarta.json.JsonArrayBuilder leases = Json.createArrayBuilder();
    for (io.mailbox.connector.api.InFlightCopy copy :
        operations.inFlight(Requests.required("address", address), Requests.limit(limit, 50))) {
      jakarta.json.JsonObjectBuilder lease =
          Json.createObjectBuilder()
              .add("messageId", copy.messageId())
              .add("key", copy.key())
              .add("leaseId", copy.leaseId())
              .add("overdue", copy.isOverdueAt(now));
      if (copy.handedOutAt() != null) {
        lease.add("handedOutAt", copy.handedOutAt().toString());
      }
      if (copy.expiresAt() != null) {
        lease.add("expiresAt", copy.expiresAt().toString());
      }
      leases.add(lease);
    }
    return Json.createObjectBuilder().add("leases", leases).build();
  }

  /**
   * Removes every queued message of the address; {@code confirm} must repeat the address, as the
   * console asks it to be typed.
   */
  @POST
  @Path("addresses/purge")
  public JsonObject purge(
      @QueryParam("address") String address, @QueryParam("confirm") String confirm) {
    String target = Requests.confirmed(address, confirm);
    return Json.createObjectBuilder().add("removed", operations.purge(target)).build();
  }

  /**
   * Posts a test message, body {@code {"address": "...", "body": "..."}} (1 to 65,536 characters of
   * body), marked with the operator's name; audited.
   */
  @POST
  @Path("addresses/test-message")
  @Consumes(MediaType.APPLICATION_JSON)
  public JsonObject sendTestMessage(InputStream body) {
    String expected = "{\"address\": \"...\", \"body\": \"...\"}";
    JsonObject request = Requests.object(body, expected);
    String address = Requests.string(request, "address", expected);
    String text = Requests.string(request, "body", expected);
    if (text.length() > MailboxOperations.MAX_TEST_BODY) {
      throw ApiRefusal.invalid(
          "body must be at most " + MailboxOperations.MAX_TEST_BODY + " characters");
    }
    String id = operations.sendTestMessage(Requests.required("address", address), text);
    return Json.createObjectBuilder().add("address", address).add("messageId", id).build();
  }

  /** Read-only copies of the parked records of an address (bounded body previews). */
  @GET
  @Path("parked")
  public JsonObject parked(
      @QueryParam("address") String address, @QueryParam("limit") String limit) {
    return Json.createObjectBuilder()
        .add(
            "records",
            JsonViews.array(
                operations.parked(Requests.required("address", address), Requests.limit(limit, 50)),
                JsonViews::message))
        .build();
  }

  /**
   * Purges one parked record ({@code key}) or, without a key, all of the address; purging all needs
   * {@code confirm} to repeat the address, as {@code addresses/purge} does.
   */
  @DELETE
  @Path("parked")
  public JsonObject purgeParked(
      @QueryParam("address") String address,
      @QueryParam("key") String key,
      @QueryParam("confirm") String confirm) {
    String target =
        key == null ? Requests.confirmed(address, confirm) : Requests.required("address", address);
    int removed = operations.purgeParked(target, key);
    return Json.createObjectBuilder().add("removed", removed).build();
  }
}
